/**
 * The types of a GGUF's metadata values (gguf_type): the size of each
 * fixed-size one and how it is read, for skipping a value and for reading it.
 */

/** Bytes of a metadata value of each fixed-size type (gguf_type: u8, i8, u16, i16, u32, i32, f32, bool, -, -, u64, i64, f64). */
export const VALUE_SIZES: Readonly<Record<number, number>> = {
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

export const STRING = 8;

export const ARRAY = 9;

/** Little-endian readers of the fixed-size value types. */
export const NUMBER_READERS: Readonly<Record<number, (bytes: Uint8Array) => number | bigint | boolean>> = {
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
