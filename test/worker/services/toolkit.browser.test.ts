import { describe, expect, test } from 'vitest';
import { startedHost } from './started-host';

describe('the toolkit service', () => {
  test('the agent’s graph is reached through it, and the loop’s selector reads the same graph', async () => {
    const { host } = await startedHost([], { toolkit: { startActions: ['plan'] } });
    const toolkit = host.toolkit;
    await toolkit.addAction({ id: 'plan', name: 'Plan', description: 'Plan the work.' });
    await toolkit.addTool('note', [{ action: 'plan', score: 1 }]);
    expect((await toolkit.recommendToolsActions(['plan'])).tools).toEqual(['note']);
    expect(await host.toolkit.toMermaid()).toMatch(/Plan/);
  });

  test('before the agent starts there is no graph to reach', async () => {
    const { AgentHost } = await import('../../../src/worker/agent-host');
    expect(() => new AgentHost().toolkit).toThrow(/not started or was closed/);
  });
});
