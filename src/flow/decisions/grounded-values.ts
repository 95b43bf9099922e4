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
 */
import type { AgentEvent } from '../../session/event';
import type { JsonSchema, ToolDeclaration } from '../../tools/declaration';
import type { TurnProcessor } from '../types';
import { refusal } from '../call-processors/refusal';
import { describedWords, valueWords } from './value-words';

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
/** What looks like an address in any string. */
const LOOKS_LIKE_ADDRESS = /^(?:[^\s@]+@[^\s@]+\.[^\s@]+|[a-z][a-z0-9+.-]*:\/\/\S+)$/i;

export const groundValues: TurnProcessor = (inv, turn) => {
  if (!inv.decisions?.retry) return;
  let said: string | undefined;
  for (const call of turn.calls) {
    if (call.response || !call.declaration) continue;
    for (const { path, value } of addresses(call.args, call.declaration.parameters)) {
      said ??= conversationText(inv.history);
      if (said.includes(value.toLowerCase())) continue;
      call.response = refusal(
        turn,
        call,
        `Not run: ${path} is ${JSON.stringify(value)}, which the user never gave and no tool returned. Use the value the user gave, or ask the user for it.`,
        UNGROUNDED_VALUE,
      );
      break;
    }
    if (call.response) continue;
    for (const { path, value } of texts(call.args, call.declaration.parameters)) {
      said ??= conversationText(inv.history);
      if (!unsaid(value, said, call.declaration)) continue;
      call.response = refusal(
        turn,
        call,
        `Not run: ${path} is ${JSON.stringify(value)}, which says nothing the user said. Write it from the user's own words.`,
        UNGROUNDED_VALUE,
      );
      break;
    }
  }
};

/**
 * A sentence (four words or more) of two or more telling words, none said in the conversation or by the tool's
 * own declaration. Names, places and dates are left alone ("Los Angeles, CA" for "la", "2023-03-10" for
 * "wednesday next week"): a model may know them better than the person wrote them.
 */
export function unsaid(value: string, said: string, tool: ToolDeclaration): boolean {
  if ((value.match(/[\p{L}\d]+/gu) ?? []).length < SENTENCE) return false;
  const words = [...valueWords(value, new Set())].filter((word) => /^\p{L}+$/u.test(word));
  if (words.length < 2) return false;
  const known = valueWords(said, describedWords([tool]));
  const own = describedWords([tool]);
  return !words.some((word) => known.has(word) || own.has(word));
}

/** The string values of `args` that are no address and choose from no list: free text the model wrote. */
function texts(
  args: unknown,
  schema: JsonSchema | undefined,
  path = 'the argument',
): { path: string; value: string }[] {
  if (typeof args === 'string')
    return schema?.format || schema?.enum || schema?.const !== undefined || LOOKS_LIKE_ADDRESS.test(args.trim())
      ? []
      : [{ path, value: args }];
  if (Array.isArray(args)) return args.flatMap((item, i) => texts(item, schema?.items as JsonSchema, `${path}[${i}]`));
  if (args && typeof args === 'object') {
    const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    return Object.entries(args).flatMap(([key, value]) => texts(value, properties[key], key));
  }
  return [];
}

/** The string values of `args` that are addresses, by their schema's format or by their look. */
function addresses(
  args: unknown,
  schema: JsonSchema | undefined,
  path = 'the argument',
): { path: string; value: string }[] {
  if (typeof args === 'string') {
    const format = typeof schema?.format === 'string' ? schema.format : undefined;
    return (format && ADDRESS_FORMATS.has(format)) || LOOKS_LIKE_ADDRESS.test(args.trim())
      ? [{ path, value: args.trim() }]
      : [];
  }
  if (Array.isArray(args))
    return args.flatMap((item, i) => addresses(item, schema?.items as JsonSchema, `${path}[${i}]`));
  if (args && typeof args === 'object') {
    const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    return Object.entries(args).flatMap(([key, value]) => addresses(value, properties[key], key));
  }
  return [];
}

/** What the person wrote and the tools returned in this session, in lower case. */
function conversationText(history: readonly AgentEvent[]): string {
  const pieces: string[] = [];
  for (const event of history) {
    if (event.partial || event.late) continue;
    for (const part of event.content?.parts ?? []) {
      if (event.content!.role === 'user' && 'text' in part) pieces.push(part.text);
      if ('functionResponse' in part) pieces.push(JSON.stringify(part.functionResponse.response ?? ''));
    }
  }
  return pieces.join('\n').toLowerCase();
}
