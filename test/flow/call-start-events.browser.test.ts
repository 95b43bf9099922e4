/**
 * A page learns that a call is being written before the model has finished
 * writing it (issue 32, "work you can see"): a partial event names the tool,
 * ahead of the model event that holds the call.
 */
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../src/index';
import { agentsClosedAfterEach, todoList } from '../page/helpers';

const start = agentsClosedAfterEach();

async function runEvents(raw: string): Promise<AgentEvent[]> {
  const { addTodo } = todoList();
  const agent = await start({
    model: { engine: 'scripted', turns: [{ raw }, { text: 'Done.' }] },
    tools: [addTodo],
    storage: 'memory',
  });
  const events: AgentEvent[] = [];
  for await (const event of agent.run('Remember to buy milk')) events.push(event);
  return events;
}

test('a partial event names the tool as soon as the model has written its name, before the call is recorded', async () => {
  const events = await runEvents('<tool_call>\n{"name": "add_todo", "arguments": {"text": "Buy milk"}}\n</tool_call>');
  const startAt = events.findIndex((event) => event.toolCallStart);
  const callAt = events.findIndex((event) =>
    event.content?.parts.some((part) => 'functionCall' in part && part.functionCall.name === 'add_todo'),
  );
  expect(events[startAt]).toMatchObject({ partial: true, seq: 0, toolCallStart: { name: 'add_todo' } });
  expect(startAt).toBeGreaterThan(-1);
  expect(startAt).toBeLessThan(callAt);
  expect(events.filter((event) => event.toolCallStart)).toHaveLength(1);
});

test('no start is announced for a tool the page does not have', async () => {
  const events = await runEvents('<tool_call>\n{"name": "hello", "arguments": {}}\n</tool_call>');
  expect(events.filter((event) => event.toolCallStart)).toEqual([]);
});
