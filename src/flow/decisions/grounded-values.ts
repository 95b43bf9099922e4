/**
 * Values from the visitor: a call whose argument is an address the visitor
 * gave (an email, a URL, a host: what the tool's schema marks with a format,
 * or what looks like one) must find it in the conversation or in a tool's
 * result. A small model fills a contact form with john.doe@example.com when
 * the visitor said nothing of an address. Such a call is answered with the
 * reason instead of running, and the run asks for it once more (retry-values.ts).
 *
 * Other values are the model's to word ("buy milk" for "remember to buy
 * milk", "price" for "cheapest first"), as long as they say something of
 * the conversation: a sentence of two or more telling words, none of them said
 * by the person, returned by a tool or in the tool's own description, is
 * the model's own ("I'm sorry, but I can't assist with that.", the 0.5B's
 * message in a contact form for "I want to ask whether the grinder is back
 * in stock"). Of the right values in BFCL's answers, it refuses none in six
 * categories (test/flow/decisions/grounded-values-bfcl.test.ts).
 *
 * A value the tool does not need (its parameter is optional) may hold no
 * word beyond the tool's own that the conversation never said: the 0.5B
 * filled sort_table's optional filter with "price < 100" for "cheapest
 * first", and with "name contains 'the second one'" (a phrase of another
 * tool's description) for "sort the table by name z to a"; the sort failed.
 * Told so, it wrote the same call again: the retry's grammar leaves that
 * argument out (retry-values.ts). A value the tool needs that only repeats
 * its action ("Tick it off." for complete_todo) names nothing to act on.
 */
import type { AgentEvent } from '../../session/event';
import type { JsonSchema } from '../../tools/declaration';
import type { TurnProcessor } from '../types';
import { refusal } from '../call-processors/refusal';
import { runRequest } from './run-request';
import { actionVerbsOf, formsOf } from './action-verbs';
import { describedWords, isCommon, stem, toolWords, valueWords } from './value-words';

export const UNGROUNDED_VALUE = 'ungrounded-value';

/** The formats whose values only the visitor (or a tool) can know. */
const ADDRESS_FORMATS = new Set([
  'email',
  'idn-email',
  'uri',
  'iri',
  'url',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
/** Words a text needs to be a sentence of the model's own. */
const SENTENCE = 4;
/** Digits joined as a date or a time is (2023-03-10, 10.3, 21:00). */
const DATE_OR_TIME = /\d[-/.:]\d/;
/** What looks like an address in any string. */
const LOOKS_LIKE_ADDRESS = /^(?:[^\s@]+@[^\s@]+\.[^\s@]+|[a-z][a-z0-9+.-]*:\/\/\S+)$/i;

export const groundValues: TurnProcessor = (inv, turn) => {
  if (!inv.decisions?.retry) return;
  let said: string | undefined;
  let saidWords: Set<string> | undefined;
  let askedWords: Set<string> | undefined;
  let texts: ReturnType<typeof sessionTexts> | undefined;
  const session = () => (texts ??= sessionTexts(inv.history));
  // What was said and returned, read once a turn and only when a value needs it.
  const saidText = () => (said ??= [...session().said, ...session().returned].join('\n').toLowerCase());
  for (const call of turn.calls) {
    if (call.response || !call.declaration) continue;
    const values = stringValues(call.args, call.declaration.parameters);
    for (const { path, value: raw } of values.filter(isAddress)) {
      const value = raw.trim();
      if (saidText().includes(value.toLowerCase())) continue;
      call.response = refusal(
        turn,
        call,
        `Not run: ${path} is ${JSON.stringify(value)}, which the user never gave and no tool returned. Use the value the user gave, or ask the user for it.`,
        UNGROUNDED_VALUE,
      );
      break;
    }
    if (call.response) continue;
    const own = describedWords([call.declaration]);
    const optional = optionalTexts(call.args, call.declaration.parameters);
    for (const { path, value } of values.filter(isText)) {
      saidWords ??= valueWords(saidText(), new Set());
      // A top-level optional argument: its path is its key.
      const key = optional.get(path) === value ? path : undefined;
      let reason: string | undefined;
      if (unsaid(value, [saidWords, own]))
        reason = "which says nothing the user said. Write it from the user's own words.";
      else if (key === undefined && onlyTheAction(value, call.declaration)) {
        reason = `which says what to do, not what to do it to. Write the user's words for the thing itself.`;
        // Told so, the 0.5B wrote it again: the retry is held to the things the request names ("agenda").
        const things = thingsNamed(runRequest(inv) ?? '', toolWords([call.declaration]));
        const properties = (call.declaration.parameters.properties ?? {}) as Record<string, unknown>;
        if (things.length && path in properties)
          inv.run.thingsAsked = { tool: call.call.name, key: path, items: things };
      } else if (key !== undefined) {
        // Asked in this request, or a value a tool returned: an earlier request's words are not asked again.
        askedWords ??= valueWords(
          `${runRequest(inv) ?? ''}\n${session().returned.join('\n')}`.toLowerCase(),
          new Set(),
        );
        if (unasked(value, askedWords, own)) {
          reason = `which the user did not ask for, and ${call.call.name} runs without it. Leave ${path} out, or take it from the user's words.`;
          inv.run.leftOut = { tool: call.call.name, key };
        }
      }
      if (!reason) continue;
      call.response = refusal(turn, call, `Not run: ${path} is ${JSON.stringify(value)}, ${reason}`, UNGROUNDED_VALUE);
      break;
    }
  }
};

/**
 * A sentence (four words or more) of two or more telling words, none of them `known` (the conversation's words,
 * the tool's own declaration's). Names, places and dates are left alone ("Los Angeles, CA" for "la",
 * "2023-03-10" for "wednesday next week"): a model may know them better than the person wrote them.
 */
export function unsaid(value: string, known: readonly ReadonlySet<string>[]): boolean {
  if ((value.match(/[\p{L}\d]+/gu) ?? []).length < SENTENCE) return false;
  const words = [...valueWords(value, new Set())].filter((word) => /^\p{L}+$/u.test(word));
  if (words.length < 2) return false;
  return !words.some((word) => known.some((set) => set.has(word)));
}

/**
 * A text of the tool's own action and nothing else ("Tick it off." for complete_todo, "Mark as done"): the
 * 0.5B passed it for "agenda's done, tick it off", and no to-do matched; told so, it wrote it again.
 */
export function onlyTheAction(value: string, tool: Parameters<typeof actionVerbsOf>[0]): boolean {
  const verbs = new Set(
    actionVerbsOf(tool).flatMap((verb) => {
      const forms = formsOf(verb);
      return [forms.base, forms.third, forms.ing, ...forms.done];
    }),
  );
  const words = [...value.matchAll(/\p{L}+/gu)].map(([word]) => word);
  // A word in capitals is a name or a constant ("POST" for an HTTP request's method), not the action said.
  if (words.some((word) => word.length > 1 && word === word.toUpperCase())) return false;
  const telling = words.map((word) => word.toLowerCase()).filter((word) => !isCommon(word));
  return telling.length > 0 && telling.every((word) => verbs.has(word));
}

/** The words of a request that name things (not common, not the tool's own), as the visitor wrote them. */
function thingsNamed(request: string, own: ReadonlySet<string>): string[] {
  const things = valueWords(request, own);
  const words = [...request.matchAll(/\p{L}+/gu)].map(([word]) => word);
  return [...new Set(words.filter((word) => /\p{L}{2}/u.test(word) && things.has(stem(word))))];
}

/**
 * An optional value with a word beyond the tool's own that no one said: a number ("price < 100") or a word
 * ("the second one") the conversation never held. A date or time is left alone ("2023-03-10" for "wednesday
 * next week"). Of the optional values in BFCL's right answers, it refuses at most 1% of the cases' in six
 * categories (test/flow/decisions/grounded-values-bfcl.test.ts).
 */
export function unasked(value: string, said: ReadonlySet<string>, own: ReadonlySet<string>): boolean {
  if (DATE_OR_TIME.test(value)) return false;
  return [...valueWords(value, own)].some((word) => !said.has(word));
}

/** The text values of the parameters a call may leave out (top-level ones, but empty ones), by key. */
export function optionalTexts(args: unknown, schema: JsonSchema | undefined): Map<string, string> {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return new Map();
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  return new Map(
    Object.entries(args).flatMap(([key, value]): [string, string][] =>
      typeof value === 'string' && value.trim() && !required.has(key) ? [[key, value]] : [],
    ),
  );
}

interface StringValue {
  path: string;
  value: string;
  schema: JsonSchema | undefined;
}

/** Every string value of `args`, with where it sits and the schema it answers to. */
function stringValues(args: unknown, schema: JsonSchema | undefined, path = 'the argument'): StringValue[] {
  if (typeof args === 'string') return [{ path, value: args, schema }];
  if (Array.isArray(args))
    return args.flatMap((item, i) => stringValues(item, schema?.items as JsonSchema, `${path}[${i}]`));
  if (args && typeof args === 'object') {
    const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    return Object.entries(args).flatMap(([key, value]) => stringValues(value, properties[key], key));
  }
  return [];
}

/** An address, by its schema's format or by its look. */
function isAddress({ value, schema }: StringValue): boolean {
  const format = typeof schema?.format === 'string' ? schema.format : undefined;
  return (format !== undefined && ADDRESS_FORMATS.has(format)) || LOOKS_LIKE_ADDRESS.test(value.trim());
}

/** Free text the model wrote: no format, no list to choose from, no address's look. */
function isText({ value, schema }: StringValue): boolean {
  return !(schema?.format || schema?.enum || schema?.const !== undefined || LOOKS_LIKE_ADDRESS.test(value.trim()));
}

/** What the person wrote and what the tools returned in this session's stored events, in one walk. */
function sessionTexts(history: readonly AgentEvent[]): { said: string[]; returned: string[] } {
  const said: string[] = [];
  const returned: string[] = [];
  for (const event of history) {
    if (event.partial || event.late) continue;
    for (const part of event.content?.parts ?? []) {
      if (event.content!.role === 'user' && 'text' in part) said.push(part.text);
      if ('functionResponse' in part) returned.push(JSON.stringify(part.functionResponse.response ?? ''));
    }
  }
  return { said, returned };
}
