// model.sha256 and model.downloadStallMs for a GGUF, checked with createAgent's other options: a wrong one is
// one invalid-options error naming the field, before a worker starts or a byte is downloaded.
import { describe, expect, it } from 'vitest';
import { checkOptions } from '../../../src/page/options-schema';

const HASH = '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32';
const check = (model: Record<string, unknown>) => () =>
  checkOptions({ model: { engine: 'wllama', url: '/m.gguf', ...model } } as never);

describe('GGUF file options', () => {
  it('takes a SHA-256 in hex, or one per file of a split model', () => {
    expect(check({ sha256: HASH })).not.toThrow();
    expect(check({ sha256: HASH.toUpperCase() })).not.toThrow();
    expect(check({ url: ['/a.gguf', '/b.gguf'], sha256: [HASH, HASH] })).not.toThrow();
  });

  it.each([['1d96'], [`${HASH}0`], [`sha256-${HASH}`], [42], [[]], [[HASH, 'nope']]])(
    'refuses sha256 %j, saying what it takes',
    (sha256) => {
      expect(check({ sha256 })).toThrow(
        /model\.sha256(\[1\])? must be the file's SHA-256 in hex \(64 characters\), or a list of them, one per file of a split model/,
      );
    },
  );

  it('takes downloadStallMs in whole milliseconds', () => {
    expect(check({ downloadStallMs: 5000 })).not.toThrow();
    for (const downloadStallMs of [0, -1, 1.5, '30s'])
      expect(check({ downloadStallMs })).toThrow(/model\.downloadStallMs must be a whole number of at least 1/);
  });
});
