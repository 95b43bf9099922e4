import { afterEach, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent } from '../../src/index';
import { responses, uniqueDb } from '../page/helpers';

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
  // One MCP server's tools/list joins as one group, through the page's handle.
  await second.toolkit.addMCPToolGroup(
    { id: 'files-mcp', name: 'Files' },
    [{ name: 'read_file', description: 'Reads a file' }, { name: 'list_dir' }],
    [{ action: 'plan', score: 0.7 }],
  );
  expect((await second.toolkit.recommendToolsActions(['plan'])).tools).toEqual(
    expect.arrayContaining(['read_file', 'list_dir']),
  );
});

test('each step allows only the tools recommended for the current actions (plus tools outside the graph), a call moves the current action, and the prompt stays the same all run', async () => {
  const dbName = uniqueDb('toolkit-loop');
  const setup = await createAgent({ model: { engine: 'scripted', turns: [] }, dbName });
  agents.push(setup);
  await buildGraph(setup);
  await setup.toolkit.addTool('notes', [
    { action: 'plan', score: 0.9 },
    { action: 'search', score: 0.9 },
  ]);
  await setup.close();

  const ran: string[] = [];
  const counted = (name: string) =>
    defineTool({
      name,
      description: `The ${name} tool.`,
      annotations: { readOnly: true },
      parameters: z.object({}),
      execute: () => (ran.push(name), `${name} done`),
    });
  const prompts: { system: string; described: string[] }[] = [];
  const agent = await createAgent({
    model: {
      engine: 'scripted',
      turns: [
        { toolCalls: [{ name: 'outline', args: {} }] },
        { toolCalls: [{ name: 'web', args: {} }] },
        { toolCalls: [{ name: 'notes', args: {} }] },
        { toolCalls: [{ name: 'web', args: {} }] },
        { text: 'done' },
      ],
    },
    tools: [counted('outline'), counted('web'), counted('notes'), counted('clock')],
    toolkit: { startActions: ['plan'] },
    callbacks: {
      beforeModel: (request) => {
        prompts.push({ system: request.messages[0].content, described: request.tools.map((t) => t.name) });
        return undefined;
      },
    },
    dbName,
  });
  agents.push(agent);
  const { events } = await agent.send('go');
  const offered = events.filter((event) => event.content?.role === 'model').map((event) => event.offeredTools);
  // At "plan": outline and notes, and clock (not in the graph). The web call at step 2 is not allowed there: it never runs.
  expect(offered[0]).toEqual(['outline', 'notes', 'clock']);
  expect(offered[1]).toEqual(['outline', 'notes', 'clock']);
  const refusal = responses(events).find((response) => response.name === 'web');
  expect(refusal?.error).toMatch(/may not be called in this step.*outline, notes, clock/);
  // notes is called by plan and search: both become current, so web is allowed at step 4 and runs.
  expect(offered[2]).toEqual(['outline', 'notes', 'clock']);
  expect(offered[3]).toEqual(['outline', 'web', 'notes', 'clock']);
  expect(offered[4]).toEqual(['web', 'notes', 'clock']);
  expect(ran).toEqual(['outline', 'notes', 'web']);
  // The prompt describes the run's tools (all the graph can reach from "plan") and never changes between steps.
  expect(prompts).toHaveLength(5);
  for (const prompt of prompts) expect(prompt).toEqual(prompts[0]);
  expect(prompts[0].described).toEqual(['outline', 'web', 'notes', 'clock']);
  expect(prompts[0].system).toContain('Steps this task can go through: Plan (decide); Search (find).');
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
