/**
 * A call any reader accepts and the function's schema allows, for cases with
 * no answer (irrelevance and relevance): each required parameter at its
 * first enum value or a plain value of its type.
 */
import { bfclType } from '../bfcl/type-map';
import { toolName } from '../bfcl/tool-name';
import type { BfclFunction, BfclParam, ModelCall } from '../bfcl/types';

export function plausibleCall(fn: BfclFunction): ModelCall {
  const required = fn.parameters.required ?? [];
  const args = Object.fromEntries(
    required.flatMap((param) => {
      const declared = fn.parameters.properties[param];
      return declared ? [[param, plainValue(declared)]] : [];
    }),
  );
  return { name: toolName(fn.name), args };
}

function plainValue(param: BfclParam): unknown {
  if (Array.isArray(param.enum) && param.enum.length) return param.enum[0];
  switch (bfclType(param.type).python) {
    case 'int':
      return 1;
    case 'float':
      return 1.5;
    case 'bool':
      return true;
    case 'list':
      return [];
    case 'dict':
      return Object.fromEntries((param.required ?? []).map((key) => [key, plainValue(param.properties?.[key] ?? {})]));
    default:
      return 'example';
  }
}
