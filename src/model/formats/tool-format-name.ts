/**
 * The names of the model families' tool-call formats: what model.toolFormat
 * may say, and what an engine reports. A format's `name` must be one of them
 * (tsc holds it), and every one names a format of FAMILIES or the fallback
 * (test/model/families.test.ts holds that). Messages list them in this order.
 */
export const TOOL_FORMAT_NAMES = [
  'hermes',
  'qwen3',
  'smollm2',
  'qwen-xml',
  'llama3-json',
  'phi4-functools',
  'gemma-tool-code',
  'gemma4',
  'mistral',
  'generic-json',
] as const;

export type ToolFormatName = (typeof TOOL_FORMAT_NAMES)[number];
