/**
 * Whether a file is a whole GGUF, read from its header alone (a few MB, the
 * vocabulary included; the weights are never read). llama.cpp's reader
 * (gguf.cpp) trusts the counts, lengths and offsets a header gives, so a file
 * cut short, or a header that claims more than the file holds, is found here
 * before it is kept in the cache or handed to llama.cpp.
 *
 * What needs the model's architecture (a missing tensor, a wrong shape, 2,000
 * blocks with the tensors of 2) is llama.cpp's to find; so is a tensor type
 * tensor-bytes.ts does not know, since newer llama.cpp versions add types: its
 * offset is checked, its size is not. The same walk of the header reads the
 * values ggufMetadata asks for (gguf-metadata.ts).
 *
 * Layout (ggml/docs/gguf.md): "GGUF", version (u32), tensor count (u64),
 * metadata count (u64), the metadata (key string, value type u32, value), the
 * tensor infos (name string, dimension count u32, dimensions u64 each, type
 * u32, offset u64), padding to `general.alignment` (default 32), the data.
 * Strings are a u64 length and UTF-8 bytes. Everything is little-endian.
 */
import { Cursor, type ReadBytes } from './gguf-cursor';
import { Problem } from './gguf-header-problem';
import { ARRAY, STRING, VALUE_SIZES } from './gguf-value-types';
import { tensorBytes } from './tensor-bytes';

/** GGML_MAX_DIMS. */
const MAX_DIMS = 4;
/** The least a tensor info takes: an empty name (8), a dimension count (4), a type (4), an offset (8). */
const LEAST_TENSOR_INFO = 24;
/** The least a metadata pair takes: an empty key (8), a type (4), one byte of value. */
const LEAST_PAIR = 13;

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

/** `visit`: reads a pair's value itself when it returns true (the cursor after the value); else the value is skipped. */
type Visit = (key: string, type: number, at: Cursor) => Promise<boolean>;

export async function readHeader(at: Cursor, visit?: Visit): Promise<void> {
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

async function skipValue(at: Cursor, type: number, key: string, depth: number): Promise<void> {
  const fixed = VALUE_SIZES[type];
  if (fixed) return at.skip(BigInt(fixed), key);
  if (type === STRING) return at.skip(await at.u64(), key);
  if (type !== ARRAY) throw new Problem(`its metadata "${key}" has a value of unknown type ${type}`);
  return skipArray(at, await at.u32(), key, depth);
}

export async function skipArray(at: Cursor, items: number, key: string, depth: number): Promise<void> {
  if (depth > 4) throw new Problem(`its metadata "${key}" nests arrays more than 4 deep`);
  const count = await at.u64();
  const least = VALUE_SIZES[items] ?? 8;
  if (count * BigInt(least) > BigInt(at.left))
    throw new Problem(`its metadata "${key}" claims ${count} entries, more than the file holds`);
  if (VALUE_SIZES[items]) return at.skip(count * BigInt(least), key);
  if (items === STRING) return at.skipStrings(count, key);
  for (let item = 0n; item < count; item++) await skipValue(at, items, key, depth + 1);
}
