import { afterEach, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent } from '../../src/index';
import { uniqueDb } from '../page/helpers';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

const tool = (name: string) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    annotations: { readOnly: true },
    parameters: z.object({}),
    execute: () => `${name} done`,
  });

async function buildGraph(agent: Agent) {
  await agent.toolkit.addAction({ id: 'plan', name: 'Plan', description: 'decide' });
  await agent.toolkit.addAction(
    { id: 'search', name: 'Search', description: 'find' },
    [],
    [{ action: 'plan', score: 0.9 }],
  );
  await agent.toolkit.addTool('outline', [{ action: 'plan', score: 0.9 }]);
  await agent.toolkit.addTool('web', [{ action: 'search', score: 0.8 }]);
}

test('the graph persists in IndexedDB: a second agent on the same database sees it', async () => {
  const dbName = uniqueDb('toolkit');
  const first = await createAgent({ model: { engine: 'scripted', turns: [] }, dbName });
  agents.push(first);
  await buildGraph(first);
  await first.close();
  const second = await createAgent({ model: { engine: 'scripted', turns: [] }, dbName });
  agents.push(second);
  expect(await second.toolkit.recommendToolsActions(['plan'], { hops: 1 })).toEqual({
    tools: ['outline', 'web'],
    actions: [
      { id: 'plan', name: 'Plan', description: 'decide' },
      { id: 'search', name: 'Search', description: 'find' },
    ],
  });
  const svg: string = await second.toolkit.render({ highlight: ['plan'] });
  expect(svg).toContain('data-id="outline"');
  await expect(second.toolkit.getAction('nope')).rejects.toMatchObject({ code: 'toolkit-invalid' });
});

test('each step offers only the tools recommended for the current actions (plus tools outside the graph), and a call moves the current action', async () => {
  const dbName = uniqueDb('toolkit-loop');
  const setup = await createAgent({ model: { engine: 'scripted', turns: [] }, dbName });
  agents.push(setup);
  await buildGraph(setup);
  await setup.close();

  const agent = await createAgent({
    model: {
      engine: 'scripted',
      turns: [
        { toolCalls: [{ name: 'outline', args: {} }] },
        { toolCalls: [{ name: 'web', args: {} }] },
        { text: 'done' },
      ],
    },
    tools: [tool('outline'), tool('web'), tool('clock')],
    toolkit: { startActions: ['plan'] },
    dbName,
  });
  agents.push(agent);
  const { events } = await agent.send('go');
  const offered = events.filter((event) => event.content?.role === 'model').map((event) => event.offeredTools);
  // Step 1 at "plan": outline, and clock (not in the graph). After outline, "plan" is still current.
  // The web call at step 2 was not offered, so it is answered as usual (the tool exists) and "search" becomes current.
  expect(offered[0]).toEqual(['outline', 'clock']);
  expect(offered[1]).toEqual(['outline', 'clock']);
  expect(offered[2]).toEqual(['web', 'clock']);
});

test('learn() moves scores toward what worked in the stored sessions', async () => {
  const dbName = uniqueDb('toolkit-learn');
  const agent = await createAgent({
    model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'web', args: {} }] }, { text: 'ok' }] },
    tools: [tool('outline'), tool('web')],
    dbName,
  });
  agents.push(agent);
  await buildGraph(agent);
  await agent.send('search the web');
  const { changed } = await agent.toolkit.learn({ rate: 0.5 });
  expect(changed).toBeGreaterThan(0);
  const graph = await agent.toolkit.toJSON();
  expect(
    graph.edges.find((edge: { from: string; to: string }) => edge.from === 'search' && edge.to === 'web')!.score,
  ).toBeCloseTo(0.9);
});
