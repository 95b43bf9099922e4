/** The names of the model families' tool-call formats: what model.toolFormat may say, and what an engine reports. */
export type ToolFormatName =
  | 'hermes'
  | 'qwen3'
  | 'smollm2'
  | 'qwen-xml'
  | 'llama3-json'
  | 'phi4-functools'
  | 'gemma-tool-code'
  | 'gemma4'
  | 'mistral'
  | 'generic-json';
