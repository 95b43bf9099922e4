import { describe, expect, it } from 'vitest';
import { collectToolOutput, isToolResult } from '../../src/tools/tool-result';

describe('isToolResult', () => {
  it('takes an object with content and only ToolResult keys', () => {
    expect(isToolResult({ content: 'x' })).toBe(true);
    expect(isToolResult({ content: null, artifact: 1, stateDelta: { a: 1 }, finalAnswer: false })).toBe(true);
  });

  it('leaves ordinary data that happens to have a content field alone', () => {
    expect(isToolResult({ content: 'x', author: 'y' })).toBe(false);
    expect(isToolResult({ content: 'x', stateDelta: 'nope' })).toBe(false);
    expect(isToolResult({ content: 'x', finalAnswer: 'yes' })).toBe(false);
    expect(isToolResult({ artifact: 1 })).toBe(false);
    expect(isToolResult('content')).toBe(false);
  });
});

describe('collectToolOutput', () => {
  it('wraps plain values and awaits promises', async () => {
    expect(await collectToolOutput(42)).toEqual({ content: 42 });
    expect(await collectToolOutput(Promise.resolve({ content: 'x', author: 'y' }))).toEqual({
      content: { content: 'x', author: 'y' },
    });
    expect(await collectToolOutput(['a', 'b'])).toEqual({ content: ['a', 'b'] });
  });

  it('streams a sync generator too', async () => {
    const seen: unknown[] = [];
    function* lines() {
      yield 'a\n';
      yield 'b\n';
    }
    expect(await collectToolOutput(lines(), { onChunk: (c) => seen.push(c) })).toEqual({ content: 'a\nb\n' });
    expect(seen).toEqual(['a\n', 'b\n']);
  });

  it('gives null for an empty stream', async () => {
    expect(await collectToolOutput((async function* () {})())).toEqual({ content: null });
  });
});
