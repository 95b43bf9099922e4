import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/engine';
import { fitToContextWindow } from '../../src/model/context-window';

// One token per character keeps the arithmetic readable.
const countTokens = (text: string) => text.length;
const filler = (n: number) => 'x'.repeat(n);

const history: ChatMessage[] = [
  { role: 'system', content: filler(50) },
  { role: 'user', content: `old question ${filler(80)}` },
  { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'get_time', args: {} }] },
  { role: 'tool', toolCallId: 'a', name: 'get_time', content: filler(80) },
  { role: 'assistant', content: `old answer ${filler(80)}` },
  { role: 'user', content: 'new question' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'b', name: 'get_time', args: {} },
      { id: 'c', name: 'get_time', args: {} },
    ],
  },
  { role: 'tool', toolCallId: 'b', name: 'get_time', content: filler(30) },
  { role: 'tool', toolCallId: 'c', name: 'get_time', content: filler(30) },
];

describe('fitToContextWindow', () => {
  it('keeps everything when it fits', () => {
    const fitted = fitToContextWindow(history, { contextWindow: 10_000, countTokens, reserveForAnswer: 100 });
    expect(fitted).toMatchObject({ dropped: 0, fits: true });
    expect(fitted.messages).toEqual(history);
  });

  it('drops the oldest turns first, and a call together with its response', () => {
    const fitted = fitToContextWindow(history, { contextWindow: 420, countTokens, reserveForAnswer: 100 });
    const roles = fitted.messages.map((m) => m.role);
    expect(fitted.fits).toBe(true);
    expect(fitted.messages[0]).toEqual(history[0]);
    expect(fitted.messages).not.toContain(history[1]);
    // Never a tool message without the assistant call before it.
    fitted.messages.forEach((m, i) => {
      if (m.role === 'tool') expect(['assistant', 'tool']).toContain(roles[i - 1]);
    });
    const hasCallA = fitted.messages.includes(history[2]);
    expect(fitted.messages.includes(history[3])).toBe(hasCallA);
    expect(fitted.dropped).toBe(history.length - fitted.messages.length);
  });

  it('never drops the system prompt, the newest user turn or the pending calls and their responses', () => {
    const fitted = fitToContextWindow(history, { contextWindow: 10, countTokens, reserveForAnswer: 5 });
    expect(fitted.messages).toEqual([history[0], history[5], history[6], history[7], history[8]]);
    expect(fitted.dropped).toBe(4);
    expect(fitted.fits).toBe(false);
  });
});
