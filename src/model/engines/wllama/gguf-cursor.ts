/**
 * Reading a GGUF's header in order, a window of the file at a time: the
 * little-endian numbers and strings it is made of, each bound by the file's
 * size, so a count or length that claims more than the file holds is a
 * Problem, not a read past the end.
 */
import { Problem } from './gguf-header-problem';
import { NUMBER_READERS, VALUE_SIZES } from './gguf-value-types';

/** Reads `length` bytes at `offset` (fewer at the end of the file). */
export type ReadBytes = (offset: number, length: number) => Promise<Uint8Array>;

const WINDOW = 1 << 20;

/**
 * Reads the header in order through a window of the file, so that a vocabulary of 250,000 strings is a few
 * reads; the reads that the window holds are synchronous (an await per string made the check 10 times slower).
 */
export class Cursor {
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
