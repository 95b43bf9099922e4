// A piece of the model's output that is not UTF-8 never fails a step: it is written as U+FFFD, the page is told
// once, and the step goes on within its token limit, ending with 'length' when the limit is spent.
import { describe, expect, it } from 'vitest';
import { goOnAfterInvalidUtf8, REPLACEMENT, tokenLimit } from '../../../src/model/engines/wllama/invalid-utf8-rule';
import { WllamaLog } from '../../../src/model/engines/wllama/wllama-log';

const log = new WllamaLog();
/** The failure llama.cpp's JSON writer reports for bytes that are not UTF-8, as the engine reads it. */
const lostPiece = log.decodeFailure(
  new Error('[json.exception.type_error.316] invalid UTF-8 byte at index 3: 0xFF'),
  log.mark,
  'Qwen2.5-Coder',
);

describe('a piece that is not UTF-8', () => {
  it('is written as U+FFFD and the step goes on for the tokens it has left', () => {
    const next = goOnAfterInvalidUtf8(lostPiece, { generated: 0, written: 9, limit: 100, replacedBefore: false });
    expect(next?.text).toBe(REPLACEMENT);
    expect(REPLACEMENT).toBe('\ufffd');
    // Nine tokens written, and the lost piece is one more.
    expect(next).toMatchObject({ generated: 10, left: 90 });
    expect(next).not.toHaveProperty('finish');
  });

  it('is told once per step, with llama.cpp’s words and what became of the piece', () => {
    const first = goOnAfterInvalidUtf8(lostPiece, { generated: 0, written: 4, limit: 100, replacedBefore: false });
    expect(first?.notice).toEqual({
      type: 'notice',
      code: 'invalid-utf8',
      message: expect.stringContaining('invalid UTF-8 byte at index 3'),
    });
    expect(first?.notice?.message).toContain(
      `each is written as U+FFFD (${REPLACEMENT}), and the step went on after it.`,
    );
    const second = goOnAfterInvalidUtf8(lostPiece, { generated: 5, written: 4, limit: 100, replacedBefore: true });
    expect(second?.text).toBe(REPLACEMENT);
    expect(second?.notice).toBeUndefined();
  });

  it('ends the step with length when the step’s token limit is spent', () => {
    const next = goOnAfterInvalidUtf8(lostPiece, { generated: 90, written: 9, limit: 100, replacedBefore: false });
    expect(next).toMatchObject({ text: REPLACEMENT, generated: 100, finish: 'length' });
    expect(next).not.toHaveProperty('left');
  });

  it('leaves every other failure to the step', () => {
    const other = log.decodeFailure(new Error('something else broke'), log.mark, 'Qwen2.5-Coder');
    expect(
      goOnAfterInvalidUtf8(other, { generated: 0, written: 1, limit: 100, replacedBefore: false }),
    ).toBeUndefined();
  });
});

describe('the step’s token limit', () => {
  it('is the page’s n_predict, its -1 the context window, else the step’s max_tokens', () => {
    expect(tokenLimit({ n_predict: 64 }, 512, 4096)).toBe(64);
    expect(tokenLimit({ n_predict: -1 }, 512, 4096)).toBe(4096);
    expect(tokenLimit(undefined, 512, 4096)).toBe(512);
    expect(tokenLimit({ top_k: 40 }, 512, 4096)).toBe(512);
  });
});
