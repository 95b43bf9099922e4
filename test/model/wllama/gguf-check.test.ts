// The header check a GGUF passes before it is cached or handed to llama.cpp (src/model/engines/wllama/gguf-check.ts), on the
// tiny model and on each damaged copy of it that the test server serves (scripts/gguf-faults.mjs).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ggufProblem } from '../../../src/model/engines/wllama/gguf-check';
import { brokenGguf } from '../../../scripts/gguf-faults.mjs';
import { tinyModelPath } from '../../../scripts/model-files.mjs';

const whole = readFileSync(tinyModelPath('gemma3'));
let reads = 0;
const problemOf = (bytes: Buffer) =>
  ggufProblem(async (offset, length) => {
    reads++;
    return new Uint8Array(bytes.subarray(offset, offset + length));
  }, bytes.length);

describe('the GGUF header check', () => {
  it('passes a whole model, reading only its header, in a few reads', async () => {
    reads = 0;
    expect(await problemOf(whole)).toBeUndefined();
    expect(reads).toBeLessThanOrEqual(10); // a 6.5 MB header through 1 MB windows
  });

  it('passes a file with bytes after its data (a padded copy)', async () => {
    expect(await problemOf(Buffer.concat([whole, Buffer.alloc(4096)]))).toBeUndefined();
  });

  it.each([
    ['cut-50', /^it is cut short: its header describes \d+ bytes and the file has \d+ \(50% of it\)$/],
    ['cut-99', /^it is cut short: .* \(99% of it\)$/],
    ['bytes-6', /^it is 6 bytes long, shorter than a GGUF header/],
    ['header-cut', /^it is cut short inside (metadata|a metadata key|a tensor name|the header)/],
    ['rows-2p40', /^its tensor ".+" \(\d+ × 1099511627776\) claims \d+ bytes of data, more than the whole file/],
    ['offset-past-end', /^its tensor ".+" starts past the end of the file$/],
    ['tensors-2p62', /^its header claims 4611686018427387904 tensors, more than a file of \d+ bytes can describe$/],
    ['vocab-2p40', /^its metadata "tokenizer\.ggml\.tokens" claims 1099511627776 entries, more than the file holds$/],
    [
      'garbage-after-magic',
      /^the bytes after "GGUF" are damaged: they give version \d+, and GGUF versions are 2 and 3$/,
    ],
  ])('finds %s', async (shape, problem) => {
    expect(await problemOf(brokenGguf(whole, shape))).toMatch(problem);
  });

  // What only the model's loader can tell: left to llama.cpp, whose refusal also empties the cache.
  it.each(['blocks-2000', 'unknown-type'])('leaves %s to llama.cpp', async (shape) => {
    expect(await problemOf(brokenGguf(whole, shape))).toBeUndefined();
  });

  it('names what is not a GGUF at all', async () => {
    expect(await problemOf(Buffer.from('<!doctype html><html></html>'))).toBe(
      'it starts with the bytes 3c 21 64 6f, not "GGUF"',
    );
  });
});
