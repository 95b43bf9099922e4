import type { ToolDeclaration } from '../../src/tools/declaration';

export function tool(
  name: string,
  parameters: Record<string, unknown>,
  description = `The ${name} tool.`,
): ToolDeclaration {
  return {
    name,
    description,
    parameters,
    annotations: {},
    needsApproval: false,
    returnDirect: false,
    longRunning: false,
    timeoutMs: 30_000,
    source: 'page',
  };
}

export const addTodo = tool(
  'add_todo',
  {
    type: 'object',
    properties: { text: { type: 'string', minLength: 1 }, due: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
  'Add an item to the todo list on this page.',
);

export const setVolume = tool(
  'set_volume',
  {
    type: 'object',
    properties: { level: { type: 'integer', minimum: 0, maximum: 10 } },
    required: ['level'],
    additionalProperties: false,
  },
  'Set the player volume.',
);

export const getTime = tool('get_time', { type: 'object', properties: {} }, 'Tell the current time.');

export const tools = [addTodo, setVolume, getTime];
export const toolNames = tools.map((t) => t.name);
