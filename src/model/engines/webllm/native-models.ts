/**
 * The models web-llm calls tools for itself (its `functionCallingModelIds`,
 * web-llm 0.2.86): the one list the runtime consults, kept here so that code
 * which must not import web-llm (the page side, the lazy engine) can use it.
 * A test checks it against web-llm's own list.
 */
export const NATIVE_TOOL_CALLING_IDS: readonly string[] = [
  'Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC',
  'Hermes-2-Pro-Llama-3-8B-q4f32_1-MLC',
  'Hermes-2-Pro-Mistral-7B-q4f16_1-MLC',
  'Hermes-3-Llama-3.1-8B-q4f32_1-MLC',
  'Hermes-3-Llama-3.1-8B-q4f16_1-MLC',
];

/** Whether web-llm's own function calling runs this model (unless the page turned it off). */
export function callsToolsNatively(modelId: string, enabled = true): boolean {
  return enabled && NATIVE_TOOL_CALLING_IDS.includes(modelId);
}
