import { describe, expect, test } from 'vitest';
import type { ModelDelta } from '../../../src/model/engine';
import { startedHost } from './started-host';

async function read(stream: ReadableStream<ModelDelta>): Promise<ModelDelta[]> {
  const deltas: ModelDelta[] = [];
  for await (const delta of stream as unknown as AsyncIterable<ModelDelta>) deltas.push(delta);
  return deltas;
}

describe('the model service', () => {
  test('one step outside the loop streams the model’s deltas and stores nothing', async () => {
    const { host } = await startedHost([{ text: 'Outside the loop.' }]);
    const deltas = await read(
      await host.model.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] } as never),
    );
    expect(
      deltas
        .filter((delta) => delta.type === 'text')
        .map((delta) => delta.text)
        .join(''),
    ).toBe('Outside the loop.');
    expect((await host.sessions.stats()).events).toBe(0);
  });

  test('an engine that cannot read ahead says so at once; the scripted one has no cache', async () => {
    const { host } = await startedHost([]);
    const model = host.model;
    expect(await model.warmup({ runId: 'w' })).toMatchObject({ status: 'unsupported' });
    expect(await model.isCached()).toBe(false);
    await model.deleteCache();
  });

  test('the next step’s use of the context window is counted, instructions and tools included', async () => {
    const { host } = await startedHost([]);
    const usage = await host.model.contextUsage();
    expect(usage.window).toBeGreaterThan(0);
    expect(usage.instructions).toBeGreaterThan(0);
    expect(usage.tools).toBeGreaterThan(0);
    expect(usage.free).toBeLessThan(usage.window);
  });

  test('before the agent starts there is no model to reach', async () => {
    const { AgentHost } = await import('../../../src/worker/agent-host');
    await expect(new AgentHost().model.contextUsage()).rejects.toThrow(/not started or was closed/);
    expect(() => new AgentHost().model.warmup({ runId: 'w' })).toThrow(/not started or was closed/);
  });
});
