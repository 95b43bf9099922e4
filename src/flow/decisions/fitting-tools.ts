/**
 * The tools a request's own words point to, among several on offer: each
 * tool scores the request's telling words found in its name, description or
 * parameters (not the verbs akin to its own: "note" is one of add's; a word
 * that several tools share counts for less, split among them), and one more
 * for each parameter format a value of the request has (an email address
 * where a parameter takes format email, a date where one takes a date: the
 * validator's own table of formats). The tools of the best score are kept;
 * when no word points anywhere, all are.
 *
 * Why: held to a call by its odds, Qwen2.5-Coder 0.5B picked the tool its
 * history had used, not the one asked for: "I'd like to get in touch with the
 * shop. My name is Dana Wu, email dana.wu@example.com…" went to complete_todo
 * twice, on a page whose fill_form takes a name, an email and a message.
 * Offered only the tools that fit, a model cannot pick the others ("Less is
 * More": fewer tools, better picks).
 */
import type { ToolDeclaration } from '../../tools/declaration';
import { isAssertedFormat, matchesFormat } from '../../tools/json-schema-formats';
import { PLAIN_WORDS } from './outside-tools';
import { describedWords, valueWords } from './value-words';

/** A format every text has: it tells no tool apart. */
const SAYS_NOTHING = new Set(['uri-reference']);

export function fittingTools(asked: string, tools: readonly ToolDeclaration[]): string[] {
  const names = tools.map((tool) => tool.name);
  if (tools.length < 2) return names;
  // "to-do" is "todo", as names spell it (add_todo).
  const request = asked.replace(/(\p{L})-(\p{L})/gu, '$1$2');
  // A request of several parts ("book the flight, and then find a hotel") wants the tools of each part.
  const parts = request.split(CLAUSE).filter((part) => part.trim());
  const own = tools.map(pointingWords);
  const fit = new Set(parts.length > 1 ? parts.flatMap((part) => bestTools(part, tools, own, 1)) : []);
  for (const name of bestTools(request, tools, own)) fit.add(name);
  return fit.size ? names.filter((name) => fit.has(name)) : names;
}

/**
 * The words that point to a tool: its described words, but for the name of a parameter that takes a format and
 * that nothing else of the tool says. Such a parameter is pointed to by a value in its format: "email the
 * landlord" asks for no contact form; "my email is dana@wu.studio" does, by the address.
 */
function pointingWords(tool: ToolDeclaration): Set<string> {
  const words = describedWords([tool]);
  const properties = (tool.parameters.properties ?? {}) as Record<string, { format?: unknown }>;
  const formatted = Object.keys(properties).filter((key) => typeof properties[key]?.format === 'string');
  if (!formatted.length) return words;
  const rest = describedWords([
    {
      ...tool,
      parameters: {
        ...tool.parameters,
        properties: Object.fromEntries(Object.entries(properties).filter(([key]) => !formatted.includes(key))),
      },
    },
  ]);
  for (const key of formatted)
    for (const word of valueWords(key.replace(/[_-]+/g, ' '), new Set())) if (!rest.has(word)) words.delete(word);
  return words;
}

/** Where a request's parts part: a sentence's end, a comma or semicolon, "and", "then", "also". */
const CLAUSE = /[.;!?](?:\s|$)|,|\b(?:and|then|also|plus)\b/i;

/** The tools of the best score for `request` (`own`: each tool's words); none when no word points anywhere. */
function bestTools(
  request: string,
  tools: readonly ToolDeclaration[],
  own: readonly ReadonlySet<string>[],
  least = 0,
): string[] {
  const names = tools.map((tool) => tool.name);
  const words = [...valueWords(request, new Set())].filter((word) => !PLAIN_WORDS.has(word));
  const tokens = tokensOf(request);
  const scores = tools.map((tool, i) => {
    let score = 0;
    for (const word of words) {
      if (!own[i]!.has(word)) continue;
      score += 1 / own.filter((set) => set.has(word)).length;
    }
    score += formatsGiven(tokens, tool).length;
    return score;
  });
  const best = Math.max(...scores);
  if (best === 0 || best < least) return [];
  return names.filter((_, i) => scores[i] === best);
}

/**
 * The tools that take a value of the request by its format: an email address where a parameter takes
 * `format: email`, a date where one takes a date.
 */
export function toolsTakingValues(request: string, tools: readonly ToolDeclaration[]): string[] {
  const tokens = tokensOf(request);
  return tools.filter((tool) => formatsGiven(tokens, tool).length).map((tool) => tool.name);
}

/** A request's words as values: split at spaces, the punctuation around them dropped. */
function tokensOf(request: string): string[] {
  return request
    .split(/\s+/)
    .map((token) => token.replace(/^[("'<\[]+|[)"'>\].,;:!?]+$/g, ''))
    .filter(Boolean);
}

/** The formats of `tool`'s parameters that a token has. */
function formatsGiven(tokens: readonly string[], tool: ToolDeclaration): string[] {
  return [...new Set(formatsOf(tool.parameters))].filter((format) =>
    tokens.some((token) => matchesFormat(format, token)),
  );
}

/** The string formats a schema's parameters take, nested ones too. */
function formatsOf(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const { format, properties, items, anyOf, oneOf } = schema as Record<string, unknown>;
  const nested = [
    ...Object.values((properties as Record<string, unknown> | undefined) ?? {}),
    items,
    ...((anyOf as unknown[] | undefined) ?? []),
    ...((oneOf as unknown[] | undefined) ?? []),
  ];
  const own = typeof format === 'string' && isAssertedFormat(format) && !SAYS_NOTHING.has(format) ? [format] : [];
  return [...own, ...nested.flatMap(formatsOf)];
}
