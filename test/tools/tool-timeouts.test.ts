/**
 * A tool runs on the page's thread, so code that blocks it cannot be stopped
 * mid-way: no timer fires while it runs. What the runtime can promise: a call
 * that took longer than its timeoutMs is never answered as a success (its
 * result arrives late, and is recorded as late).
 */
import { describe, expect, test } from 'vitest';
import { defineTool } from '../../src/tools/define-tool';
import { invokeTool, type ToolOutcome } from '../../src/tools/invoke-tool';
import { z } from '../../src/tools/zod';

/** Blocks the thread, as a slow synchronous tool does. */
function block(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe('a tool that blocks the thread past its timeout', () => {
  test('a synchronous tool that takes longer than timeoutMs is answered tool-timeout, and its result arrives late', async () => {
    const late: ToolOutcome[] = [];
    const tool = defineTool({
      name: 'slow_sync',
      description: 'Blocks.',
      timeoutMs: 100,
      parameters: z.object({}),
      execute: () => {
        block(400);
        return 'finished';
      },
    });
    const outcome = await invokeTool(tool, {}, { onLate: (o) => late.push(o) });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('tool-timeout');
    await expect.poll(() => late.length).toBe(1);
    expect(late[0]).toMatchObject({ ok: true, result: { content: 'finished' } });
  });
});
