// Trimming in large blocks: the prefix the KV cache holds survives many steps between trims.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/engine';
import { fitToContextWindow } from '../../src/model/context-window';

const countTokens = (text: string) => text.length; // one token per character keeps the arithmetic readable
const options = { contextWindow: 1200, countTokens, reserveForAnswer: 200 };

/** A long tool run: the user asks once, then every step is a call and its result. */
function steps(count: number): ChatMessage[][] {
  const conversation: ChatMessage[] = [{ role: 'user', content: `question ${'q'.repeat(60)}` }];
  const requests: ChatMessage[][] = [];
  for (let i = 0; i < count; i++) {
    requests.push([...conversation]);
    conversation.push(
      {
        role: 'assistant',
        content: '',
        raw: `call ${i} ${'c'.repeat(30)}`,
        toolCalls: [{ id: `c${i}`, name: 'look', args: {} }],
      },
      { role: 'tool', toolCallId: `c${i}`, name: 'look', content: `result ${i} ${'r'.repeat(40)}` },
    );
  }
  return requests;
}

const isPrefix = (shorter: ChatMessage[], longer: ChatMessage[]) =>
  shorter.every((message, i) => longer[i] === message);

describe('fitToContextWindow over the steps of a long run', () => {
  it('cuts rarely and in large blocks: between two cuts every request extends the one before', () => {
    const fitted = steps(60).map((messages) => fitToContextWindow(messages, options));
    expect(fitted.every((result) => result.fits)).toBe(true);
    const cuts = fitted.flatMap((result, i) =>
      i > 0 && !isPrefix(fitted[i - 1].messages, result.messages) ? [i] : [],
    );
    // 60 steps of about 100 tokens in a 1,000-token budget: dropping one unit per step would shift the prefix
    // at every step once full (about 50 times); half the budget at a time shifts it every few steps only.
    expect(cuts.length).toBeGreaterThan(0);
    expect(cuts.length).toBeLessThanOrEqual(12);
    for (let i = 1; i < cuts.length; i++) expect(cuts[i] - cuts[i - 1]).toBeGreaterThanOrEqual(4);
    // Each cut gets well under the budget, and the question stays.
    for (const i of cuts) {
      expect(fitted[i].tokens).toBeLessThanOrEqual(500 + 110);
      expect(fitted[i].messages[0].content).toMatch(/^question/);
    }
  });

  it('finds the same cut again from the messages alone: a request built twice is the same', () => {
    const requests = steps(40);
    const once = fitToContextWindow(requests[39], options);
    const again = fitToContextWindow([...requests[39]], options);
    expect(again.messages).toEqual(once.messages);
  });
});
