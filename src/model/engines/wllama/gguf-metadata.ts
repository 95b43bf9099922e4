/**
 * The values of a few metadata keys of a GGUF (its name, architecture, chat
 * template, vocabulary), read from a header that ggufProblem found whole.
 */
import { readHeader, skipArray } from './gguf-check';
import { Cursor, type ReadBytes } from './gguf-cursor';
import { Problem } from './gguf-header-problem';
import { ARRAY, NUMBER_READERS, STRING, VALUE_SIZES } from './gguf-value-types';

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
