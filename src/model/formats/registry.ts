/**
 * Which format a model writes, from its web-llm id (its family's: families/),
 * and every format by name for `model.toolFormat`.
 */
import { AgentError } from '../../errors';
import { FAMILIES } from '../families';
import { gemma4 } from './gemma4';
import { gemmaToolCode } from './gemma-tool-code';
import { genericJson } from './generic-json';
import { hermes } from './hermes';
import { llama3Json } from './llama3-json';
import { mistral } from './mistral';
import { phi4Functools } from './phi4-functools';
import { qwen3 } from './qwen3';
import { qwenXml } from './qwen-xml';
import { smollm2 } from './smollm2';
import type { ToolFormat, ToolFormatName } from './tool-format';

export const TOOL_FORMATS: Readonly<Record<ToolFormatName, ToolFormat>> = {
  hermes,
  qwen3,
  smollm2,
  'qwen-xml': qwenXml,
  'llama3-json': llama3Json,
  'phi4-functools': phi4Functools,
  'gemma-tool-code': gemmaToolCode,
  gemma4,
  mistral,
  'generic-json': genericJson,
};

/** Model ids (as web-llm names them) and the format each family was trained on; the first match wins (families/index.ts). */
export const MODEL_FAMILIES: readonly { ids: RegExp; format: ToolFormatName; family: string }[] = FAMILIES.map(
  (family) => ({ ids: family.ids, format: family.format, family: family.name }),
);

/** The format for a model id: its family's, or `override` when the page names one. */
export function toolFormatFor(modelId: string, override?: string): ToolFormat {
  if (override !== undefined) return toolFormatNamed(override);
  const family = MODEL_FAMILIES.find((entry) => entry.ids.test(modelId));
  return TOOL_FORMATS[family?.format ?? 'generic-json'];
}

export function toolFormatNamed(name: string): ToolFormat {
  const format = (TOOL_FORMATS as Record<string, ToolFormat | undefined>)[name];
  if (!format || !Object.hasOwn(TOOL_FORMATS, name))
    throw new AgentError(
      'invalid-options',
      `model.toolFormat "${name}" is not a tool-call format; use one of: ${Object.keys(TOOL_FORMATS).join(', ')}.`,
    );
  return format;
}
