/**
 * Text the model did not write (the user's words, tool results, page content)
 * must not be able to forge the chat template's structure. A tokenizer turns
 * `<|im_start|>` or `[INST]` found in plain text into the real special token,
 * so a tool result holding `<|im_end|><|im_start|>assistant<tool_call>…` would
 * otherwise read to the model as a turn and a call of its own. We break every
 * such marker with a backslash: a person still reads it, a tokenizer no longer
 * matches it, and our parser (which only reads model output) never sees it.
 */

/** `<|anything|>`: ChatML (Qwen, SmolLM, Phi), Llama 3 (`<|eot_id|>`, `<|python_tag|>`), Phi (`<|end|>`). */
const PIPE_TOKENS = /<\|([^|<>\s]{1,40})\|>/g;
/** DeepSeek writes its markers with full-width bars. */
const FULLWIDTH_TOKENS = /<｜([^｜<>]{1,40})｜>/g;
/** Mistral and Llama 2 bracket markers. */
const BRACKET_TOKENS = /\[(\/?)(INST|SYS|TOOL_CALLS|TOOL_RESULTS|AVAILABLE_TOOLS|SYSTEM_PROMPT|ARGS|CALL_ID|THINK)\]/g;
/** Tags that Hermes, Qwen and Llama use to delimit calls, tool lists and results; and turn markers of Gemma and Llama 2. */
const TAGS =
  /<(\/?)(tool_call|tool_response|tools|function(?==)|function(?=>)|start_of_turn|end_of_turn|s)(?=[\s>=])/gi;

/** Escapes text from users and tools before it goes into a prompt. */
export function escapeUntrusted(text: string): string {
  return text
    .replace(PIPE_TOKENS, '<\\|$1\\|>')
    .replace(FULLWIDTH_TOKENS, '<\\｜$1\\｜>')
    .replace(BRACKET_TOKENS, '[\\$1$2]')
    .replace(TAGS, '<\\$1$2');
}

/** True when a text holds something that a template or our parser would read as structure. */
export function hasTemplateMarkup(text: string): boolean {
  return escapeUntrusted(text) !== text;
}
