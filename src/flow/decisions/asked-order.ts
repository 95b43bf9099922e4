/**
 * The order the visitor asked for. "Sort the products by price, cheapest first", "from cheapest to priciest",
 * "lowest first": a call whose order argument says the other way is answered with the reason instead of
 * running, and the retry's grammar holds that argument to the order asked (retry-values.ts); so does the retry
 * of such a call refused for another of its values. An optional text of the call that only says an order ("Z to
 * A" as a filter) is left out of the retry. Once a run.
 *
 * The order argument is one the tool's schema names as such: a boolean `descending`/`desc`/`reverse` or
 * `ascending`/`asc`, or a string whose choices say ascending and descending ("asc", "desc"). The order asked
 * is read from the request's words: a superlative before "first" or "at the top" ("most expensive at the
 * top"), a range ("low to high", "Z to A"), or the word itself ("descending"). A request that says both, or
 * neither, leaves the call alone.
 *
 * Why: in the page suite the 0.5B sorted "cheapest first", "from cheapest to priciest" and "stock, lowest
 * first" with descending: true, though sort_table's description says when to leave it out.
 */
import type { JsonSchema } from '../../tools/declaration';
import type { TurnProcessor } from '../types';
import { refusal } from '../call-processors/refusal';
import { runRequest } from './run-request';

export const ORDER_NOT_ASKED = 'order-not-asked';

export type Order = 'ascending' | 'descending';

const LOW = 'lowest|cheapest|smallest|least|fewest|oldest|earliest|shortest|lightest';
const HIGH = 'highest|priciest|dearest|biggest|largest|most|newest|latest|longest|heaviest';
const LOW_END = 'low|lowest|cheap|cheapest|small|smallest|least|few|fewest|old|oldest';
const HIGH_END = 'high|highest|expensive|priciest|big|biggest|large|largest|most|many|new|newest';

const FIRST = String.raw`\b(?:first|on top|at the top)\b`;
const ASCENDING = [
  new RegExp(String.raw`\b(?:${LOW})\b[^,.;!?]{0,30}?${FIRST}`, 'i'),
  new RegExp(String.raw`\b(?:${LOW_END})\s+(?:to|->|-)\s+(?:${HIGH_END})\b`, 'i'),
  /\ba\s*(?:to|-)\s*z\b/i,
  /\bascending\b/i,
];
const DESCENDING = [
  new RegExp(String.raw`\b(?:${HIGH})\b[^,.;!?]{0,30}?${FIRST}`, 'i'),
  new RegExp(String.raw`\b(?:${HIGH_END})\s+(?:to|->|-)\s+(?:${LOW_END})\b`, 'i'),
  /\bz\s*(?:to|-)\s*a\b/i,
  /\bdescending\b/i,
];

/** The order a request asks for in words, if it says one and only one. */
export function orderAsked(request: string): Order | undefined {
  const ascending = ASCENDING.some((pattern) => pattern.test(request));
  const descending = DESCENDING.some((pattern) => pattern.test(request));
  return ascending === descending ? undefined : ascending ? 'ascending' : 'descending';
}

/** A tool's order argument: its key, and the value that asks for each order. */
export interface OrderParameter {
  key: string;
  value: Record<Order, unknown>;
  /** The value when the call leaves the argument out, if its meaning is plain (a boolean: its default, else false). */
  absent?: unknown;
}

/** The tool's one order argument, if its schema has one. */
export function orderParameter(parameters: JsonSchema | undefined): OrderParameter | undefined {
  const properties = (parameters as { properties?: Record<string, JsonSchema> } | undefined)?.properties ?? {};
  const found: OrderParameter[] = [];
  for (const [key, property] of Object.entries(properties)) {
    if (!property || typeof property !== 'object') continue;
    const {
      type,
      enum: choices,
      default: fallback,
    } = property as { type?: unknown; enum?: unknown[]; default?: unknown };
    if (type === 'boolean') {
      const name = key.toLowerCase();
      // Left out, a boolean is its default, else false.
      const absent = typeof fallback === 'boolean' ? fallback : false;
      if (/^(?:is_?)?(?:desc|descending|reverse|reversed|sort_?desc)$/.test(name))
        found.push({ key, value: { ascending: false, descending: true }, absent });
      else if (/^(?:is_?)?(?:asc|ascending|sort_?asc)$/.test(name))
        found.push({ key, value: { ascending: true, descending: false }, absent });
    } else if (Array.isArray(choices)) {
      const named = (pattern: RegExp) => choices.filter((choice) => typeof choice === 'string' && pattern.test(choice));
      const up = named(/^(?:asc|ascending)$/i);
      const down = named(/^(?:desc|descending)$/i);
      if (up.length === 1 && down.length === 1) found.push({ key, value: { ascending: up[0], descending: down[0] } });
    }
  }
  return found.length === 1 ? found[0] : undefined;
}

/** Refuses, once a run, a call whose order argument sorts the other way than the request asks. */
export const askedOrder: TurnProcessor = (inv, turn) => {
  if (!inv.decisions?.retry || inv.run.orderAsked) return;
  const request = runRequest(inv);
  const order = request && orderAsked(request);
  if (!order) return;
  for (const entry of turn.calls) {
    if (!entry.declaration) continue;
    const parameter = orderParameter(entry.declaration.parameters);
    if (!parameter) continue;
    const args = (entry.args ?? {}) as Record<string, unknown>;
    const given = parameter.key in args ? args[parameter.key] : parameter.absent;
    const wanted = parameter.value[order];
    const other = parameter.value[order === 'ascending' ? 'descending' : 'ascending'];
    if (given !== other) continue;
    const name = entry.call.name;
    inv.run.orderAsked = { tool: name, key: parameter.key, value: wanted };
    // An optional text that only says an order ("Z to A" as a filter) is that order again: the retry leaves it out.
    const required = new Set((entry.declaration.parameters.required as string[] | undefined) ?? []);
    const orderOnly = Object.entries(args).find(
      ([key, value]) => key !== parameter.key && !required.has(key) && typeof value === 'string' && orderAsked(value),
    );
    if (orderOnly && !inv.run.leftOut) inv.run.leftOut = { tool: name, key: orderOnly[0] };
    // Refused already (a value no one asked for beside it): its retry holds the order too.
    if (entry.response) return;
    entry.response = refusal(
      turn,
      entry,
      `Not run: the request asks for the ${order === 'ascending' ? 'lowest' : 'highest'} first (${order}), and ${parameter.key}: ${JSON.stringify(given)} sorts the other way. Call ${name} with ${parameter.key}: ${JSON.stringify(wanted)}.`,
      ORDER_NOT_ASKED,
    );
    return;
  }
};
