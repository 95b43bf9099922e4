/**
 * One call against one expected call: BFCL's simple_function_checker
 * (ast_checker.py). The name first (dots written as underscores), then the
 * required parameters, then each argument the model wrote, then the
 * parameters the answer needs that the model left out.
 */
import { checkArgument, type Failure } from './judge-argument';
import { pyIn, shown } from './python-values';
import { toolName } from './tool-name';
import type { BfclFunction, ModelCall } from './types';

export function checkCall(
  fn: BfclFunction,
  call: ModelCall,
  accepted: Readonly<Record<string, unknown[]>>,
): Failure | undefined {
  const name = toolName(fn.name);
  if (call.name !== name)
    return { rule: 'simple_function_checker:wrong_func_name', why: `Expected a call to ${name}, got ${call.name}.` };
  const args = call.args as Record<string, unknown>;
  const declared = fn.parameters.properties ?? {};
  for (const param of fn.parameters.required ?? []) {
    if (!Object.hasOwn(args, param))
      return { rule: 'simple_function_checker:missing_required', why: `${name} lacks its required ${param}.` };
  }
  for (const [param, value] of Object.entries(args)) {
    // A parameter the function declares but no answer names is as wrong as one it does not declare.
    if (!Object.hasOwn(declared, param) || !Object.hasOwn(accepted, param))
      return {
        rule: 'simple_function_checker:unexpected_param',
        why: `${name} got ${param}=${shown(value)}, which ${Object.hasOwn(declared, param) ? 'no answer uses' : 'it does not declare'}.`,
      };
    const failure = checkArgument(param, value, accepted[param]!, declared[param]!);
    if (failure) return failure;
  }
  for (const [param, values] of Object.entries(accepted)) {
    if (!Object.hasOwn(args, param) && !pyIn('', values))
      return {
        rule: 'simple_function_checker:missing_optional',
        why: `${name} lacks ${param}, which the answer needs (${shown(values)}).`,
      };
  }
  return undefined;
}
