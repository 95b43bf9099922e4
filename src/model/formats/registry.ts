/**
 * Which format a model writes, from its web-llm id (web-llm 0.2.86's prebuilt
 * list, families of 4B or less first), and every format by name for
 * `model.toolFormat`.
 */
import { AgentError } from '../../errors';
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

/** Model ids (as web-llm names them) and the format each family was trained on; the first match wins. */
export const MODEL_FAMILIES: readonly { ids: RegExp; format: ToolFormatName; family: string }[] = [
  { ids: /^Qwen3\.5-/i, format: 'qwen-xml', family: 'Qwen3.5' },
  { ids: /^Qwen3-/i, format: 'qwen3', family: 'Qwen3' },
  { ids: /^Qwen2(\.5)?-/i, format: 'hermes', family: 'Qwen2.5, Qwen2.5-Coder' },
  { ids: /^(Open|Neural)?Hermes-/i, format: 'hermes', family: 'Hermes' },
  { ids: /^SmolLM2-/i, format: 'smollm2', family: 'SmolLM2' },
  { ids: /^Llama-3(\.\d)?-/i, format: 'llama3-json', family: 'Llama 3.x' },
  { ids: /^Phi-4-mini/i, format: 'phi4-functools', family: 'Phi-4-mini' },
  { ids: /^gemma-4-/i, format: 'gemma4', family: 'gemma-4' },
  { ids: /^gemma(-2|3|-2b)/i, format: 'gemma-tool-code', family: 'Gemma 2, Gemma 3' },
  { ids: /^(Ministral-3|Mistral-7B-Instruct-v0\.3)/i, format: 'mistral', family: 'Ministral 3' },
];

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
