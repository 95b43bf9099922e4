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
 *
 * The rules below know the markers of the families we write for. A model's
 * tokenizer knows its own: an engine that has the list (a GGUF's control
 * tokens and the added tokens its chat template writes) escapes with
 * escaperFor(list), which breaks every one of those too, so that Gemma's
 * `<eos>`, `<start_of_image>` or `<unused42>`, or the markers of a family
 * added later, are never read whole.
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

/** How a prompt writer escapes text it did not write. */
export type Escape = (text: string) => string;

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

/**
 * escapeUntrusted, then every one of `specialTokens` still whole in the text broken by a backslash after its first
 * character (`<eos>` → `<\eos>`). One scan, longest token first at each position, through a trie of the tokens: a
 * vocabulary may have thousands (Gemma 3 has 6,249 control tokens), and each step escapes the whole conversation.
 */
export function escaperFor(specialTokens: readonly string[]): Escape {
  const trie = tokenTrie(specialTokens);
  if (!trie.size) return escapeUntrusted;
  return (text) => breakTokens(escapeUntrusted(text), trie);
}

interface TrieNode extends Map<string, TrieNode> {
  /** A token ends here. */
  end?: boolean;
}

function tokenTrie(tokens: readonly string[]): TrieNode {
  const root: TrieNode = new Map();
  for (const token of tokens) {
    // One character cannot be broken by inserting one: such a token (none of the families has one) is left to the rules.
    if (token.length < 2) continue;
    let node = root;
    for (let k = 0; k < token.length; k++) {
      let next = node.get(token[k]!);
      if (!next) node.set(token[k]!, (next = new Map()));
      node = next;
    }
    node.end = true;
  }
  return root;
}

function breakTokens(text: string, trie: TrieNode): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length;) {
    let node = trie.get(text[i]!);
    let end = -1;
    for (let j = i + 1; node; j++) {
      if (node.end) end = j;
      if (j >= text.length) break;
      node = node.get(text[j]!);
    }
    if (end === -1) {
      i++;
      continue;
    }
    // After the first UTF-16 unit: a token that begins with a surrogate pair keeps it whole.
    const first = text.codePointAt(i)! > 0xffff ? 2 : 1;
    out += `${text.slice(copied, i + first)}\\${text.slice(i + first, end)}`;
    copied = i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
