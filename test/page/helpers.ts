/** Shared by the browser tests: unique databases, a DOM to-do list, event lookups. */
import { afterEach } from 'vitest';
import { createAgent, defineTool, z, type Agent, type AgentEvent } from '../../src/index';

export function uniqueDb(label: string): string {
  return `test-${label}-${crypto.randomUUID()}`;
}

export function todoList() {
  const list = document.createElement('ul');
  document.body.append(list);
  const calls: string[] = [];
  const addTodo = defineTool({
    name: 'add_todo',
    description: 'Add an item to the to-do list on this page.',
    parameters: z.object({ text: z.string().min(1), due: z.string().optional() }),
    execute: async ({ text }) => {
      calls.push(text);
      const item = document.createElement('li');
      item.textContent = text;
      list.append(item);
      return { id: `todo-${list.children.length}` };
    },
  });
  return { list, addTodo, calls, items: () => [...list.children].map((li) => li.textContent) };
}

export function responses(events: AgentEvent[]) {
  return events.flatMap((event) =>
    event.content?.role === 'tool' && !event.late
      ? event.content.parts.flatMap((part) => ('functionResponse' in part ? [part.functionResponse] : []))
      : [],
  );
}

export function calls(events: AgentEvent[]) {
  return events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall] : [])),
  );
}

/** createAgent for a test file: every agent it makes is closed after each test. */
export function agentsClosedAfterEach(): (options: Parameters<typeof createAgent>[0]) => Promise<Agent> {
  const agents: Agent[] = [];
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.close()));
  });
  return async (options) => {
    const agent = await createAgent(options);
    agents.push(agent);
    return agent;
  };
}
