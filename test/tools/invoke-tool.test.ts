import { describe, expect, it } from 'vitest';
import { defineTool, type ToolContext } from '../../src/tools/define-tool';
import { invokeTool } from '../../src/tools/invoke-tool';
import { z } from '../../src/tools/zod';

const params = z.object({ text: z.string().min(1) });

function tool(execute: (args: { text: string }, ctx: ToolContext) => unknown, extra: { timeoutMs?: number } = {}) {
  return defineTool({ name: 'add_todo', description: 'Add a to-do.', parameters: params, execute, ...extra });
}

describe('invokeTool', () => {
  it('runs execute with validated arguments and the context, and times the call', async () => {
    let seen: { args?: unknown; ctx?: ToolContext } = {};
    const outcome = await invokeTool(
      tool((args, ctx) => {
        seen = { args, ctx };
        ctx.setState({ last: args.text });
        return { id: '1' };
      }),
      { text: 'milk', stray: true },
      {
        context: {
          sessionId: 's1',
          callId: 'c1',
          state: { n: 1 },
          setState: (delta) => (seen = { ...seen, args: { ...(seen.args as object), delta } }),
        },
      },
    );
    expect(outcome).toMatchObject({ ok: true, result: { content: { id: '1' } } });
    expect(outcome.ms).toBeGreaterThanOrEqual(0);
    expect(seen.ctx?.sessionId).toBe('s1');
    expect(seen.ctx?.state).toEqual({ n: 1 });
    expect(seen.ctx?.signal).toBeInstanceOf(AbortSignal);
    expect(seen.args).toEqual({ text: 'milk', delta: { last: 'milk' } }); // zod stripped "stray"
  });

  it('never lets invalid arguments reach execute', async () => {
    let ran = false;
    const outcome = await invokeTool(
      tool(() => (ran = true)),
      { text: 5 },
    );
    expect(ran).toBe(false);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('invalid-arguments');
      expect(outcome.error.message).toContain('add_todo: "text" must be a string');
    }
  });

  it('turns a throw into tool-failed with the tool name and message', async () => {
    for (const execute of [
      () => {
        throw new Error('the list is full');
      },
      async () => Promise.reject(new Error('the list is full')),
    ]) {
      const outcome = await invokeTool(tool(execute), { text: 'milk' });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'tool-failed' } });
      if (!outcome.ok) expect(outcome.error.message).toBe('Tool "add_todo" failed: the list is full');
    }
    const odd = await invokeTool(
      tool(() => Promise.reject({ reason: 'odd' })),
      { text: 'x' },
    );
    expect(!odd.ok && odd.error.message).toContain('{"reason":"odd"}');
  });

  it('ends a call that never resolves and ignores its signal with tool-timeout, promptly', async () => {
    let signal: AbortSignal | undefined;
    const outcome = await invokeTool(
      tool(
        (_, ctx) => {
          signal = ctx.signal;
          return new Promise(() => {});
        },
        { timeoutMs: 30 },
      ),
      { text: 'milk' },
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('tool-timeout');
      expect(outcome.error.message).toContain('30 ms');
      expect(outcome.error.message).toContain('timeoutMs');
    }
    expect(signal?.aborted).toBe(true);
  });

  it('lets a call override the tool timeout', async () => {
    const outcome = await invokeTool(
      tool(() => new Promise(() => {})),
      { text: 'milk' },
      { timeoutMs: 20 },
    );
    expect(!outcome.ok && outcome.error.code).toBe('tool-timeout');
  });

  it('ends with aborted when the run is aborted, even if execute ignores the signal', async () => {
    const controller = new AbortController();
    const pending = invokeTool(
      tool(() => new Promise(() => {})),
      { text: 'milk' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 5);
    const outcome = await pending;
    expect(!outcome.ok && outcome.error.code).toBe('aborted');

    let ran = false;
    const already = await invokeTool(
      tool(() => (ran = true)),
      { text: 'milk' },
      { signal: AbortSignal.abort() },
    );
    expect(!already.ok && already.error.code).toBe('aborted');
    expect(ran).toBe(false);
  });

  it('reports the stop, not the throw, for a tool that honours its signal', async () => {
    const outcome = await invokeTool(
      tool(
        (_, ctx) =>
          new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))),
      ),
      { text: 'milk' },
      { timeoutMs: 10 },
    );
    expect(!outcome.ok && outcome.error.code).toBe('tool-timeout');
  });

  it.each([
    ['a function', () => ({ onClick: function onClick() {} }), 'content.onClick is a function (onClick)'],
    ['a symbol', () => ({ list: [1, Symbol('s')] }), 'content.list[1] is a symbol (s)'],
    ['a WeakMap', () => ({ content: 'ok', artifact: { cache: new WeakMap() } }), 'artifact.cache is a WeakMap'],
  ])('turns a result holding %s into tool-result-not-cloneable saying where', async (_, execute, where) => {
    const outcome = await invokeTool(tool(execute), { text: 'milk' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('tool-result-not-cloneable');
      expect(outcome.error.message).toContain(where);
      expect(outcome.error.message).toContain('plain data');
    }
  });

  it('returns a copy of the result, so later changes on the page do not leak into the log', async () => {
    const live = { count: 1 };
    const outcome = await invokeTool(
      tool(() => live),
      { text: 'milk' },
    );
    live.count = 2;
    expect(outcome.ok && outcome.result.content).toEqual({ count: 1 });
  });

  it('keeps a ToolResult as it is and drops prototype keys from its stateDelta', async () => {
    const outcome = await invokeTool(
      tool(() => ({
        content: 'added',
        artifact: { row: 3 },
        stateDelta: JSON.parse('{"todos":1,"__proto__":{"polluted":1}}'),
        finalAnswer: true,
      })),
      { text: 'milk' },
    );
    expect(outcome.ok).toBe(true);
    if (outcome.ok) {
      expect(outcome.result).toEqual({
        content: 'added',
        artifact: { row: 3 },
        stateDelta: { todos: 1 },
        finalAnswer: true,
      });
      expect(Object.prototype.hasOwnProperty.call(outcome.result.stateDelta, '__proto__')).toBe(false);
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('hands execute arguments without __proto__ or constructor keys', async () => {
    let received: Record<string, unknown> = {};
    const loose = defineTool({
      name: 'patch',
      description: 'Patch settings.',
      parameters: z.object({ patch: z.record(z.string(), z.unknown()) }),
      execute: (args) => {
        received = args.patch;
        return 'ok';
      },
    });
    const outcome = await invokeTool(
      loose,
      JSON.parse('{"patch":{"a":1,"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}}'),
    );
    expect(outcome.ok).toBe(true);
    expect(Object.keys(received)).toEqual(['a']);
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('streams the chunks of an async iterable and records their concatenation', async () => {
    const chunks: unknown[] = [];
    const outcome = await invokeTool(
      tool(async function* () {
        yield 'Step 1. ';
        yield 'Step 2. ';
        yield 'Done.';
      }),
      { text: 'milk' },
      { onChunk: (chunk) => chunks.push(chunk) },
    );
    expect(chunks).toEqual(['Step 1. ', 'Step 2. ', 'Done.']);
    expect(outcome.ok && outcome.result).toEqual({ content: 'Step 1. Step 2. Done.' });
  });

  it("records the last chunk of a non-text stream, or the generator's return value", async () => {
    const last = await invokeTool(
      tool(async function* () {
        yield { progress: 0.5 };
        yield { progress: 1 };
      }),
      { text: 'milk' },
    );
    expect(last.ok && last.result.content).toEqual({ progress: 1 });
    const returned = await invokeTool(
      tool(async function* () {
        yield 'working';
        return { content: 'all done', artifact: { rows: 2 } };
      }),
      { text: 'milk' },
    );
    expect(returned.ok && returned.result).toEqual({ content: 'all done', artifact: { rows: 2 } });
  });

  it('streams the content of a ToolResult and keeps its other fields', async () => {
    const chunks: unknown[] = [];
    const outcome = await invokeTool(
      tool(() => ({
        content: (async function* () {
          yield 'a';
          yield 'b';
        })(),
        finalAnswer: true,
      })),
      { text: 'x' },
      { onChunk: (c) => chunks.push(c) },
    );
    expect(chunks).toEqual(['a', 'b']);
    expect(outcome.ok && outcome.result).toEqual({ content: 'ab', finalAnswer: true });
  });

  it('stops a stream on abort and lets the generator clean up', async () => {
    const controller = new AbortController();
    let cleaned = false;
    const outcome = await invokeTool(
      tool(async function* () {
        try {
          for (let i = 0; ; i++) {
            if (i === 2) controller.abort();
            yield i;
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
        } finally {
          cleaned = true;
        }
      }),
      { text: 'x' },
      { signal: controller.signal },
    );
    expect(!outcome.ok && outcome.error.code).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cleaned).toBe(true);
  });

  it('rejects a streamed chunk that cannot cross to the worker', async () => {
    const outcome = await invokeTool(
      tool(async function* () {
        yield 'fine';
        yield { el: () => 1 };
      }),
      { text: 'x' },
      { onChunk: () => {} },
    );
    expect(!outcome.ok && outcome.error.code).toBe('tool-result-not-cloneable');
    expect(!outcome.ok && outcome.error.message).toContain('chunk 1.el is a function');
  });

  it('answers undefined as null content', async () => {
    const outcome = await invokeTool(
      tool(() => undefined),
      { text: 'x' },
    );
    expect(outcome.ok && outcome.result).toEqual({ content: null });
  });
});
