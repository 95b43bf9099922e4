/**
 * Twenty requests a visitor might make of a page with five tools, each with
 * the call that does it: the sample the real-model test and the benchmark
 * score a model on (the right tool, with arguments that say what was asked).
 */
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { tool } from '../tools-fixture';

const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const pageTools: ToolDeclaration[] = [
  tool(
    'add_todo',
    object({ text: { type: 'string', minLength: 1 } }, ['text']),
    'Add an item to the to-do list on this page.',
  ),
  tool(
    'set_volume',
    object({ level: { type: 'integer', minimum: 0, maximum: 10 } }, ['level']),
    'Set the music player volume, from 0 (silent) to 10 (loudest).',
  ),
  tool(
    'search_products',
    object({ query: { type: 'string', minLength: 1 } }, ['query']),
    'Search the shop on this page for products.',
  ),
  tool(
    'set_theme',
    object({ mode: { enum: ['light', 'dark'] } }, ['mode']),
    'Switch the page between its light and dark colours.',
  ),
  tool(
    'get_weather',
    object({ city: { type: 'string', minLength: 1 } }, ['city']),
    'Tell the current weather in a city.',
  ),
];

export interface PageRequest {
  text: string;
  tool: string;
  /** Whether the call's arguments say what was asked. */
  right(args: Record<string, unknown>): boolean;
}

const mentions =
  (key: string, ...words: string[]) =>
  (args: Record<string, unknown>) =>
    typeof args[key] === 'string' && words.every((word) => (args[key] as string).toLowerCase().includes(word));
const is = (key: string, value: unknown) => (args: Record<string, unknown>) => args[key] === value;

export const pageRequests: PageRequest[] = [
  { text: 'Remember to buy milk', tool: 'add_todo', right: mentions('text', 'milk') },
  { text: 'Add "call mom" to my list', tool: 'add_todo', right: mentions('text', 'call mom') },
  { text: 'Put walk the dog on my to-do list', tool: 'add_todo', right: mentions('text', 'dog') },
  { text: "Don't let me forget to pay the rent", tool: 'add_todo', right: mentions('text', 'rent') },
  { text: 'Set the volume to 3', tool: 'set_volume', right: is('level', 3) },
  { text: 'Turn the sound up to 8', tool: 'set_volume', right: is('level', 8) },
  { text: 'Mute the music', tool: 'set_volume', right: is('level', 0) },
  { text: 'Volume 5 please', tool: 'set_volume', right: is('level', 5) },
  { text: 'Find red shoes', tool: 'search_products', right: mentions('query', 'red', 'shoe') },
  { text: 'Search for a laptop bag', tool: 'search_products', right: mentions('query', 'laptop') },
  { text: 'Do you sell coffee mugs?', tool: 'search_products', right: mentions('query', 'mug') },
  { text: 'Look up wireless headphones', tool: 'search_products', right: mentions('query', 'headphone') },
  { text: 'Switch to dark mode', tool: 'set_theme', right: is('mode', 'dark') },
  { text: 'Make the page light', tool: 'set_theme', right: is('mode', 'light') },
  { text: "It's too bright, use the dark theme", tool: 'set_theme', right: is('mode', 'dark') },
  { text: 'Light colours please', tool: 'set_theme', right: is('mode', 'light') },
  { text: "What's the weather in Paris?", tool: 'get_weather', right: mentions('city', 'paris') },
  { text: 'Is it raining in London?', tool: 'get_weather', right: mentions('city', 'london') },
  { text: 'Weather for Tokyo', tool: 'get_weather', right: mentions('city', 'tokyo') },
  { text: 'How hot is it in Madrid today?', tool: 'get_weather', right: mentions('city', 'madrid') },
];

export interface Score {
  requests: number;
  /** Requests answered with at least one call, every call read and valid. */
  validCalls: number;
  /** …whose first call is the right tool with the right arguments. */
  right: number;
  /** …whose first call is the right tool, whatever its arguments. */
  rightTool: number;
}

/** Scores one request's calls: the first call decides. */
export function score(
  into: Score,
  request: PageRequest,
  calls: { name: string; args: unknown }[],
  errors: number,
): void {
  into.requests++;
  if (!calls.length || errors) return;
  into.validCalls++;
  const [first] = calls;
  if (first.name !== request.tool) return;
  into.rightTool++;
  if (request.right((first.args ?? {}) as Record<string, unknown>)) into.right++;
}

/**
 * The page's instructions for a base model (Gemma 3 270M is one: it was never taught to follow
 * instructions or to call tools): it continues the pattern it is shown, so the instructions show
 * one request answered with one call per tool, in Gemma's ```tool_code syntax. None of them is
 * one of the twenty requests.
 */
export const pageInstructions = [
  'You help with this page. Answer each request with one call of a tool, in a ```tool_code block.',
  ['Add eggs to my list', 'add_todo(text="eggs")'],
  ['Set the volume to 7', 'set_volume(level=7)'],
  ['Search for a blue scarf', 'search_products(query="blue scarf")'],
  ['Use the dark colours', 'set_theme(mode="dark")'],
  ['What is the weather in Rome?', 'get_weather(city="Rome")'],
]
  .map((entry) => (typeof entry === 'string' ? entry : `Request: ${entry[0]}\n\`\`\`tool_code\n${entry[1]}\n\`\`\``))
  .join('\n\n');
