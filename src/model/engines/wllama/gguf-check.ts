/**
 * Whether a file is a whole GGUF, read from its header alone (a few MB, the
 * vocabulary included; the weights are never read). llama.cpp's reader
 * (gguf.cpp) trusts the counts, lengths and offsets a header gives, so a file
 * cut short, or a header that claims more than the file holds, is found here
 * before it is kept in the cache or handed to llama.cpp.
 *
 * What needs the model's architecture (a missing tensor, a wrong shape, 2,000
 * blocks with the tensors of 2) is llama.cpp's to find; so is a tensor type
 * this table does not know, since newer llama.cpp versions add types: its
 * offset is checked, its size is not.
 *
 * Layout (ggml/docs/gguf.md): "GGUF", version (u32), tensor count (u64),
 * metadata count (u64), the metadata (key string, value type u32, value), the
 * tensor infos (name string, dimension count u32, dimensions u64 each, type
 * u32, offset u64), padding to `general.alignment` (default 32), the data.
 * Strings are a u64 length and UTF-8 bytes. Everything is little-endian.
 */

/** Reads `length` bytes at `offset` (fewer at the end of the file). */
export type ReadBytes = (offset: number, length: number) => Promise<Uint8Array>;

/** (elements per block, bytes per block) of each ggml type, from gguf-py's GGML_QUANT_SIZES. */
const TYPE_SIZES: Readonly<Record<number, readonly [number, number]>> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 40], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  16: [256, 66], // IQ2_XXS
  17: [256, 74], // IQ2_XS
  18: [256, 98], // IQ3_XXS
  19: [256, 50], // IQ1_S
  20: [32, 18], // IQ4_NL
  21: [256, 110], // IQ3_S
  22: [256, 82], // IQ2_S
  23: [256, 136], // IQ4_XS
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  29: [256, 56], // IQ1_M
  30: [1, 2], // BF16
  34: [256, 54], // TQ1_0
  35: [256, 66], // TQ2_0
  39: [32, 17], // MXFP4
};

/** Bytes of a metadata value of each fixed-size type (gguf_type: u8, i8, u16, i16, u32, i32, f32, bool, -, -, u64, i64, f64). */
const VALUE_SIZES: Readonly<Record<number, number>> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};
const STRING = 8;
const ARRAY = 9;
/** GGML_MAX_DIMS. */
const MAX_DIMS = 4;
/** The least a tensor info takes: an empty name (8), a dimension count (4), a type (4), an offset (8). */
const LEAST_TENSOR_INFO = 24;
/** The least a metadata pair takes: an empty key (8), a type (4), one byte of value. */
const LEAST_PAIR = 13;
const WINDOW = 1 << 20;

/** What is wrong with the file, as the end of a sentence ("it is cut short: …"), or undefined when the header holds. */
export async function ggufProblem(read: ReadBytes, fileSize: number): Promise<string | undefined> {
  try {
    await readHeader(new Cursor(read, fileSize));
    return undefined;
  } catch (error) {
    if (error instanceof Problem) return error.message;
    throw error;
  }
}

/** A metadata value as read: a string, a number, or an array of strings or numbers; a string too long to read says so. */
export type MetadataValue = string | number | bigint | boolean | TooLong | readonly (string | number)[];

/** A string longer than the reader was told to read: only its length in bytes. */
export interface TooLong {
  tooLong: number;
}

/**
 * The values of `keys` in the header of a file that ggufProblem found whole (strings, numbers, and arrays of strings
 * or numbers; other values are skipped). A string longer than `maxStringBytes` is not read: its length is.
 */
export async function ggufMetadata(
  read: ReadBytes,
  fileSize: number,
  keys: readonly string[],
  maxStringBytes: number,
): Promise<Map<string, MetadataValue>> {
  const values = new Map<string, MetadataValue>();
  const wanted = new Set(keys);
  await readHeader(new Cursor(read, fileSize), async (key, type, at) => {
    if (!wanted.has(key)) return false;
    const value = await readValue(at, type, key, maxStringBytes);
    if (value !== undefined) values.set(key, value);
    return value !== undefined;
  });
  return values;
}

/** Reads a value of `type` when it is one ggufMetadata reads; undefined (nothing read) otherwise. */
async function readValue(
  at: Cursor,
  type: number,
  key: string,
  maxStringBytes: number,
): Promise<MetadataValue | undefined> {
  if (type === STRING) {
    const length = await at.u64();
    if (length > BigInt(maxStringBytes)) {
      at.skip(length, key);
      return { tooLong: Number(length) };
    }
    if (length > BigInt(at.left)) throw new Problem(`it is cut short inside metadata "${key}"`);
    return new TextDecoder().decode(await at.bytes(Number(length)));
  }
  if (type in NUMBER_READERS) return NUMBER_READERS[type]!(await at.bytes(VALUE_SIZES[type]!));
  if (type !== ARRAY) return undefined;
  const items = await at.u32();
  if (items !== STRING && !(items in NUMBER_READERS)) {
    await skipArray(at, items, key, 0);
    return [];
  }
  const count = await at.u64();
  const least = VALUE_SIZES[items] ?? 8;
  if (count * BigInt(least) > BigInt(at.left))
    throw new Problem(`its metadata "${key}" claims ${count} entries, more than the file holds`);
  return items === STRING ? at.strings(count, maxStringBytes, key) : at.numbers(count, items);
}

/** Little-endian readers of the fixed-size value types. */
const NUMBER_READERS: Readonly<Record<number, (bytes: Uint8Array) => number | bigint | boolean>> = {
  0: (b) => b[0]!,
  1: (b) => new DataView(b.buffer, b.byteOffset).getInt8(0),
  2: (b) => new DataView(b.buffer, b.byteOffset).getUint16(0, true),
  3: (b) => new DataView(b.buffer, b.byteOffset).getInt16(0, true),
  4: (b) => new DataView(b.buffer, b.byteOffset).getUint32(0, true),
  5: (b) => new DataView(b.buffer, b.byteOffset).getInt32(0, true),
  6: (b) => new DataView(b.buffer, b.byteOffset).getFloat32(0, true),
  7: (b) => b[0] !== 0,
  10: (b) => new DataView(b.buffer, b.byteOffset).getBigUint64(0, true),
  11: (b) => new DataView(b.buffer, b.byteOffset).getBigInt64(0, true),
  12: (b) => new DataView(b.buffer, b.byteOffset).getFloat64(0, true),
};

class Problem extends Error {}

/** `visit`: reads a pair's value itself when it returns true (the cursor after the value); else the value is skipped. */
type Visit = (key: string, type: number, at: Cursor) => Promise<boolean>;

async function readHeader(at: Cursor, visit?: Visit): Promise<void> {
  const size = at.fileSize;
  if (size < 4) throw new Problem(`it is ${size} bytes long, shorter than a GGUF's first four bytes`);
  const magic = await at.bytes(4);
  if (String.fromCharCode(...magic) !== 'GGUF')
    throw new Problem(
      `it starts with the bytes ${[...magic].map((byte) => byte.toString(16).padStart(2, '0')).join(' ')}, not "GGUF"`,
    );
  if (size < 24) throw new Problem(`it is ${size} bytes long, shorter than a GGUF header (24 bytes)`);
  const version = await at.u32();
  if (version === 1) throw new Problem('it is a GGUF of version 1, which llama.cpp no longer reads');
  if (version !== 2 && version !== 3)
    throw new Problem(
      version >= 0x01000000 && version <= 0x03000000
        ? 'it is a big-endian GGUF; llama.cpp in a browser reads little-endian ones'
        : `the bytes after "GGUF" are damaged: they give version ${version}, and GGUF versions are 2 and 3`,
    );
  const tensors = await at.u64();
  const pairs = await at.u64();
  if (tensors * BigInt(LEAST_TENSOR_INFO) > BigInt(at.left))
    throw new Problem(`its header claims ${tensors} tensors, more than a file of ${size} bytes can describe`);
  if (pairs * BigInt(LEAST_PAIR) > BigInt(at.left))
    throw new Problem(`its header claims ${pairs} metadata entries, more than a file of ${size} bytes can hold`);
  let alignment = 32;
  for (let pair = 0; pair < Number(pairs); pair++) {
    const key = await at.string('a metadata key');
    const type = await at.u32();
    if (key === 'general.alignment' && type === 4) {
      alignment = await at.u32();
      if (!alignment || alignment & (alignment - 1))
        throw new Problem(`its general.alignment is ${alignment}, not a power of two`);
    } else if (!(await visit?.(key, type, at))) await skipValue(at, type, key, 0);
  }
  // The metadata is all a reader of values wants.
  if (visit) return;
  // The tensors' data, relative to where the data starts; each tensor's end, for the size the file must have.
  let end = 0n;
  for (let tensor = 0; tensor < Number(tensors); tensor++) {
    const name = await at.string('a tensor name');
    const dims = await at.u32();
    if (dims > MAX_DIMS) throw new Problem(`its tensor "${name}" has ${dims} dimensions; ggml has at most ${MAX_DIMS}`);
    const shape: bigint[] = [];
    for (let dim = 0; dim < dims; dim++) shape.push(await at.u64());
    const type = await at.u32();
    const offset = await at.u64();
    if (offset > BigInt(size)) throw new Problem(`its tensor "${name}" starts past the end of the file`);
    const bytes = tensorBytes(name, type, shape);
    if (bytes > BigInt(size))
      throw new Problem(
        `its tensor "${name}" (${shape.join(' × ')}) claims ${bytes} bytes of data, more than the whole file (${size} bytes)`,
      );
    if (offset + bytes > end) end = offset + bytes;
  }
  const dataStart = Math.ceil(at.position / alignment) * alignment;
  const needed = BigInt(dataStart) + end;
  if (needed > BigInt(size))
    throw new Problem(
      `it is cut short: its header describes ${needed} bytes and the file has ${size} (${percent(size, needed)} of it)`,
    );
}

/** A share below 100%, rounded, never said as 100% of a file that is short. */
function percent(part: number, whole: bigint): string {
  return `${Math.min(99, Math.round((100 * part) / Number(whole)))}%`;
}

/** Bytes of a tensor's data, or 0 for a type not in the table (llama.cpp judges it). */
function tensorBytes(name: string, type: number, shape: readonly bigint[]): bigint {
  const sizes = TYPE_SIZES[type];
  if (!sizes) return 0n;
  const [block, blockBytes] = sizes;
  const [first = 1n, ...rest] = shape;
  if (first % BigInt(block))
    throw new Problem(`its tensor "${name}" has rows of ${first} elements, not a whole number of its type's blocks`);
  return rest.reduce((bytes, dim) => bytes * dim, (first / BigInt(block)) * BigInt(blockBytes));
}

async function skipValue(at: Cursor, type: number, key: string, depth: number): Promise<void> {
  const fixed = VALUE_SIZES[type];
  if (fixed) return at.skip(BigInt(fixed), key);
  if (type === STRING) return at.skip(await at.u64(), key);
  if (type !== ARRAY) throw new Problem(`its metadata "${key}" has a value of unknown type ${type}`);
  return skipArray(at, await at.u32(), key, depth);
}

async function skipArray(at: Cursor, items: number, key: string, depth: number): Promise<void> {
  if (depth > 4) throw new Problem(`its metadata "${key}" nests arrays more than 4 deep`);
  const count = await at.u64();
  const least = VALUE_SIZES[items] ?? 8;
  if (count * BigInt(least) > BigInt(at.left))
    throw new Problem(`its metadata "${key}" claims ${count} entries, more than the file holds`);
  if (VALUE_SIZES[items]) return at.skip(count * BigInt(least), key);
  if (items === STRING) return at.skipStrings(count, key);
  for (let item = 0n; item < count; item++) await skipValue(at, items, key, depth + 1);
}

/**
 * Reads the header in order through a window of the file, so that a vocabulary of 250,000 strings is a few
 * reads; the reads that the window holds are synchronous (an await per string made the check 10 times slower).
 */
class Cursor {
  position = 0;
  private window: Uint8Array = new Uint8Array(0);
  private view: DataView = new DataView(new ArrayBuffer(0));
  private windowStart = 0;

  constructor(
    private readonly read: ReadBytes,
    readonly fileSize: number,
  ) {}

  get left(): number {
    return this.fileSize - this.position;
  }

  async u32(): Promise<number> {
    await this.need(4);
    return this.u32Now();
  }

  async u64(): Promise<bigint> {
    await this.need(8);
    return this.u64Now();
  }

  async string(what: string): Promise<string> {
    const length = await this.u64();
    if (length > BigInt(this.left)) throw this.cut(what);
    return new TextDecoder().decode(await this.bytes(Number(length)));
  }

  async bytes(length: number): Promise<Uint8Array> {
    await this.need(length);
    const from = this.position - this.windowStart;
    this.position += length;
    return this.window.subarray(from, from + length);
  }

  /** Skips `count` strings (a vocabulary): the hot loop of the check. */
  async skipStrings(count: bigint, what: string): Promise<void> {
    for (let item = 0n; item < count; item++) {
      if (!this.has(8)) await this.need(8);
      this.skip(this.u64Now(), what);
    }
  }

  /** Reads `count` strings (a vocabulary), each at most `maxBytes` long. */
  async strings(count: bigint, maxBytes: number, what: string): Promise<string[]> {
    const out: string[] = [];
    const decoder = new TextDecoder();
    for (let item = 0n; item < count; item++) {
      if (!this.has(8)) await this.need(8);
      const length = this.u64Now();
      if (length > BigInt(this.left)) throw this.cut(`metadata "${what}"`);
      if (length > BigInt(maxBytes)) throw new Problem(`its metadata "${what}" holds a string of ${length} bytes`);
      const bytes = Number(length);
      if (!this.has(bytes)) await this.need(bytes);
      const from = this.position - this.windowStart;
      out.push(decoder.decode(this.window.subarray(from, from + bytes)));
      this.position += bytes;
    }
    return out;
  }

  /** Reads `count` numbers of a fixed-size type (a vocabulary's token types). */
  async numbers(count: bigint, type: number): Promise<number[]> {
    const size = VALUE_SIZES[type]!;
    const out: number[] = [];
    for (let item = 0n; item < count; item++) {
      if (!this.has(size)) await this.need(size);
      const from = this.position - this.windowStart;
      out.push(Number(NUMBER_READERS[type]!(this.window.subarray(from, from + size))));
      this.position += size;
    }
    return out;
  }

  skip(length: bigint, what: string): void {
    if (length > BigInt(this.left)) throw this.cut(`metadata "${what}"`);
    this.position += Number(length);
  }

  private has(length: number): boolean {
    const from = this.position - this.windowStart;
    return from >= 0 && from + length <= this.window.length;
  }

  private async need(length: number): Promise<void> {
    if (this.has(length)) return;
    if (length > this.left) throw this.cut('the header');
    this.windowStart = this.position;
    this.window = await this.read(this.position, Math.max(length, WINDOW));
    this.view = new DataView(this.window.buffer, this.window.byteOffset, this.window.byteLength);
    if (this.window.length < length) throw this.cut('the header');
  }

  private u32Now(): number {
    const value = this.view.getUint32(this.position - this.windowStart, true);
    this.position += 4;
    return value;
  }

  private u64Now(): bigint {
    const value = this.view.getBigUint64(this.position - this.windowStart, true);
    this.position += 8;
    return value;
  }

  private cut(what: string): Problem {
    return new Problem(`it is cut short inside ${what}, at byte ${this.position} of ${this.fileSize}`);
  }
}
