/**
 * A base model (a GGUF without a chat template) was never taught to follow
 * instructions: it continues the document it is given, and given instructions
 * alone it repeats them (Gemma 3 270M does, from its first token). What it
 * does follow is an example. So when a step offers tools, its prompt opens with
 * a short finished conversation in the family's own format: a call where a
 * tool fits, the result read back, and a plain answer where no tool fits.
 *
 * The example's tool is its own and is never offered: the grammar and the
 * reader allow the step's tools only, and its name is one no tool of the
 * step has (a page's get_weather would make a copied example call a real
 * one, and the model does copy it). The example comes first and stays the
 * same from step to step, so llama.cpp's prefix cache keeps it.
 */
import { DEFAULT_TOOL_TIMEOUT_MS, type ToolDeclaration } from '../tools/declaration';
import type { ToolFormat } from './formats/tool-format';
import type { Turn } from './engines/wllama/wllama-template';

const EXAMPLE_TOOL: ToolDeclaration = {
  name: 'example_get_weather',
  description: 'The weather now in a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'The city, in English.' } },
    required: ['city'],
  },
  annotations: { readOnly: true },
  needsApproval: false,
  returnDirect: false,
  longRunning: false,
  timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
  source: 'builtin',
};

/** The example conversation, then the step's own turns with its system text opening its first user turn. */
export function withExample(turns: readonly Turn[], format: ToolFormat, tools: readonly ToolDeclaration[]): Turn[] {
  const system = turns.filter((turn) => turn.role === 'system').map((turn) => turn.content);
  const rest = turns.filter((turn) => turn.role !== 'system');
  // The step's tools and system text belong to its own conversation, not to the example before it.
  const [first, ...later] = rest;
  const opening =
    first?.role === 'user'
      ? [{ role: 'user' as const, content: [...system, first.content].join('\n\n') }]
      : [
          ...(system.length ? [{ role: 'user' as const, content: system.join('\n\n') }] : []),
          ...(first ? [first] : []),
        ];
  return [...exampleTurns(format, new Set(tools.map((tool) => tool.name))), ...opening, ...later];
}

/** The example as the model reads it, for counting its tokens with the tools (model/context-usage.ts). */
export function exampleText(format: ToolFormat, tools: readonly ToolDeclaration[]): string {
  return exampleTurns(format, new Set(tools.map((tool) => tool.name)))
    .map((turn) => turn.content)
    .join('\n');
}

/** A question a tool answers, its one call, the result and a reply; then a request no tool fits, answered in words. */
export function exampleTurns(format: ToolFormat, taken: ReadonlySet<string> = new Set()): Turn[] {
  let name = EXAMPLE_TOOL.name;
  for (let n = 2; taken.has(name); n++) name = `${EXAMPLE_TOOL.name}_${n}`;
  const tool = { ...EXAMPLE_TOOL, name };
  return [
    { role: 'user', content: `${format.describeTools([tool])}\n\nWhat is the weather like in Paris?` },
    {
      role: 'assistant',
      content: format.writeTurn('', [{ id: 'example-1', name, args: { city: 'Paris' } }]),
    },
    {
      role: 'user',
      content: format.writeResults([{ callId: 'example-1', name, content: '{"temperature_c":18,"sky":"clear"}' }]),
    },
    { role: 'assistant', content: 'It is 18 °C and clear in Paris.' },
    { role: 'user', content: 'Thanks. Now write one line about the sea.' },
    { role: 'assistant', content: 'The sea keeps its secrets under a silver light.' },
  ];
}
