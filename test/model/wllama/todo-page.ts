/**
 * A small page with four tools (a to-do list and a theme switch), as a visitor
 * meets it: the real-model tests run conversations on it and print what the
 * model did, request by request.
 */
import { defineTool, z, type AgentEvent } from '../../../src/index';

export interface TodoPage {
  todos: { id: string; text: string; done: boolean }[];
  theme: 'light' | 'dark';
}

export function todoPage(): { page: TodoPage; tools: ReturnType<typeof defineTool>[] } {
  const page: TodoPage = { todos: [], theme: 'light' };
  const tools = [
    defineTool({
      name: 'add_todo',
      description: 'Add an item to the to-do list on this page.',
      parameters: z.object({ text: z.string().min(1).describe('What to do, in a few words.') }),
      execute: async ({ text }) => {
        const id = String(page.todos.length + 1);
        page.todos.push({ id, text, done: false });
        return { id };
      },
    }),
    defineTool({
      name: 'list_todos',
      description: 'List the items on the to-do list, with their ids and whether they are done.',
      parameters: z.object({}),
      annotations: { readOnly: true },
      execute: async () => page.todos.map(({ id, text, done }) => ({ id, text, done })),
    }),
    defineTool({
      name: 'complete_todo',
      description: 'Mark an item of the to-do list as done, by its id.',
      parameters: z.object({ id: z.string().describe('The id of the item, as list_todos gives it.') }),
      execute: async ({ id }) => {
        const todo = page.todos.find((item) => item.id === id);
        if (!todo) throw new Error(`There is no item ${id}; list_todos gives the ids.`);
        todo.done = true;
        return { ok: true };
      },
    }),
    defineTool({
      name: 'set_theme',
      description: 'Switch the page between its light and dark colours.',
      parameters: z.object({ mode: z.enum(['light', 'dark']) }),
      execute: async ({ mode }) => {
        page.theme = mode;
        return { ok: true };
      },
    }),
  ];
  return { page, tools };
}

/** One request's story: its calls with their arguments, the reply, how it ended and how long it took. */
export interface Exchange {
  request: string;
  calls: { name: string; args: unknown; error?: string }[];
  reply: string;
  endReason?: string;
  error?: string;
  seconds: number;
}

export function exchangeOf(request: string, events: AgentEvent[], seconds: number, text: string): Exchange {
  const calls: Exchange['calls'] = [];
  const errors = new Map<string, string>();
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      if ('functionCall' in part) calls.push({ name: part.functionCall.name, args: part.functionCall.args });
      if ('functionResponse' in part && part.functionResponse.error)
        errors.set(part.functionResponse.id, part.functionResponse.error);
    }
  }
  const ids = events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall.id] : [])),
  );
  ids.forEach((id, index) => {
    const error = errors.get(id);
    if (error) calls[index].error = error;
  });
  const last = events.at(-1);
  return { request, calls, reply: text, endReason: last?.endReason, error: last?.error?.message, seconds };
}

export function transcript(model: string, exchanges: readonly Exchange[]): string {
  return [
    `── ${model} ──`,
    ...exchanges.flatMap((exchange) => [
      `> ${exchange.request}   (${exchange.seconds.toFixed(1)} s, ${exchange.endReason})`,
      ...exchange.calls.map(
        (call) => `  ${call.name}(${JSON.stringify(call.args)})${call.error ? `  ✗ ${call.error.slice(0, 120)}` : ''}`,
      ),
      `  « ${exchange.reply || '(no reply)'} »${exchange.error ? `  error: ${exchange.error}` : ''}`,
    ]),
  ].join('\n');
}
