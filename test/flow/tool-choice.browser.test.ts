import { describe, expect, test } from 'vitest';
import { defineTool, z, type ModelRequest } from '../../src/index';
import { agentsClosedAfterEach, responses } from '../page/helpers';

const start = agentsClosedAfterEach();

function counter(name: string, ran: string[]) {
  return defineTool({
    name,
    description: `Counts ${name}.`,
    parameters: z.object({}),
    execute: () => {
      ran.push(name);
      return name;
    },
  });
}

/** The tool choice each model request carried, as a beforeModel callback sees it (returning nothing lets the model answer). */
function requestLog() {
  const seen: (ModelRequest['toolChoice'] | 'absent')[] = [];
  return { seen, beforeModel: (request: ModelRequest) => void seen.push(request.toolChoice ?? 'absent') };
}

describe('toolChoice', () => {
  test("'none' reaches every model request of the run, and a call the model makes anyway never runs", async () => {
    const ran: string[] = [];
    const log = requestLog();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'a', args: {} }] }, { text: 'Fine, no tools.' }],
      },
      tools: [counter('a', ran)],
      callbacks: { beforeModel: log.beforeModel },
      storage: 'memory',
    });
    const { events, text } = await agent.send('count', { toolChoice: 'none' });
    expect(ran).toEqual([]);
    expect(responses(events)[0]?.error).toMatch(/No tool may be called in this step/);
    expect(log.seen).toEqual(['none', 'none']);
    expect(text).toBe('Fine, no tools.');
  });

  test('a named tool is required on the first step only, and another tool the model calls instead never runs', async () => {
    const ran: string[] = [];
    const log = requestLog();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'a', args: {} }] }, { toolCalls: [{ name: 'b', args: {} }] }, { text: 'done' }],
      },
      tools: [counter('a', ran), counter('b', ran)],
      callbacks: { beforeModel: log.beforeModel },
      toolChoice: { name: 'b' },
      storage: 'memory',
    });
    const { events } = await agent.send('count b');
    expect(responses(events)[0]?.error).toMatch(/Only b may be called in this step/);
    // The refusal answered step 1; step 2 is free ('auto'), so b runs there.
    expect(ran).toEqual(['b']);
    expect(log.seen).toEqual([{ name: 'b' }, 'absent', 'absent']);
  });

  test("a run's toolChoice overrides the agent's, and 'required' holds for the first step", async () => {
    const ran: string[] = [];
    const log = requestLog();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'a', args: {} }] }, { text: 'done' }, { text: 'plain' }],
      },
      tools: [counter('a', ran)],
      callbacks: { beforeModel: log.beforeModel },
      toolChoice: 'none',
      storage: 'memory',
    });
    await agent.send('count', { toolChoice: 'required' });
    expect(ran).toEqual(['a']);
    await agent.send('again');
    expect(log.seen).toEqual(['required', 'absent', 'none']);
  });
});
