/**
 * Text the model did not write (the user's words, tool results, page content)
 * must not be able to forge the chat template's structure or a call. A
 * tokenizer turns `<|im_start|>` or `[INST]` found in plain text into the real
 * special token, so a tool result holding `<|im_end|><|im_start|>assistant<tool_call>…`
 * would otherwise read to the model as a turn and a call of its own; and a
 * model that echoes a result holding `<tool_call>…` or a ```tool_code block
 * would have our reader run it. We break every such marker with a backslash:
 * a person still reads it, a tokenizer no longer matches it, and our readers
 * (which only read model output) never see it.
 */

/** `<|anything|>`: ChatML (Qwen, SmolLM, Phi), Llama 3 (`<|eot_id|>`, `<|python_tag|>`), Phi (`<|end|>`), Gemma 4's `<|"|>`. */
const PIPE_TOKENS = /<\|([^|<>\s]{1,40})\|>/g;
/** DeepSeek writes its markers with full-width bars. */
const FULLWIDTH_TOKENS = /<｜([^｜<>]{1,40})｜>/g;
/** Mistral and Llama 2 bracket markers. */
const BRACKET_TOKENS = /\[(\/?)(INST|SYS|TOOL_CALLS|TOOL_RESULTS|AVAILABLE_TOOLS|SYSTEM_PROMPT|ARGS|CALL_ID|THINK)\]/g;
/** Gemma 4's half-open markers: `<|tool_call>` … `<tool_call|>`, `<|turn>`, `<|channel>`. */
const GEMMA4_OPEN = /<\|(tool_call|tool_response|tool|turn|channel|think)>/g;
const GEMMA4_CLOSE = /<(tool_call|tool_response|tool|turn|channel)\|>/g;
/** Tags that delimit calls, tool lists, results and reasoning (Hermes, Qwen, Llama), and turn markers of Gemma and Llama 2. */
const TAGS =
  /<(\/?)(tool_call|tool_response|tools|tool|function|parameter|think|start_of_turn|end_of_turn|s)(?=[\s>=])/gi;
/** A fence (```tool_code, ```json …): a block a model echoes must not open a call. */
const FENCES = /```/g;
/** Phi-4-mini's call list. */
const FUNCTOOLS = /functools(\s*)\[/g;
/**
 * JSON that reads as a bare call (Llama's `{"name": …, "parameters": …}`): the first key's quote is escaped.
 * Only when arguments follow soon, so that ordinary results such as {"name": "Milk", "price": 2} stay as they are.
 */
const BARE_CALL_JSON =
  /(\{\s*)"(name|function)"(\s*:)(?=[^]{0,400}?"(?:arguments|parameters)"\s*:)|(\{\s*)"(tool_calls|arguments|parameters)"(\s*:)/g;
/** A pythonic call list `[name(…)`. */
const PYTHONIC_LIST = /\[(\s*[A-Za-z_][\w.]*\s*\()/g;

/** Escapes text from users and tools before it goes into a prompt. */
export function escapeUntrusted(text: string): string {
  return text
    .replace(PIPE_TOKENS, '<\\|$1\\|>')
    .replace(FULLWIDTH_TOKENS, '<\\｜$1\\｜>')
    .replace(BRACKET_TOKENS, '[\\$1$2]')
    .replace(GEMMA4_OPEN, '<\\|$1>')
    .replace(GEMMA4_CLOSE, '<$1\\|>')
    .replace(TAGS, '<\\$1$2')
    .replace(FENCES, '``\\`')
    .replace(FUNCTOOLS, 'functools$1\\[')
    .replace(BARE_CALL_JSON, (_, a, key, colon, b, key2, colon2) => `${a ?? b}\\"${key ?? key2}"${colon ?? colon2}`)
    .replace(PYTHONIC_LIST, '[\\$1');
}

/** True when a text holds something that a template or our reader would read as structure. */
export function hasTemplateMarkup(text: string): boolean {
  return escapeUntrusted(text) !== text;
}
