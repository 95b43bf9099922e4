/**
 * Values from the visitor: a call whose argument is an address the visitor
 * gave (an email, a URL, a host: what the tool's schema marks with a format,
 * or what looks like one) must find it in the conversation or in a tool's
 * result. A small model fills a contact form with john.doe@example.com when
 * the visitor said nothing of an address. Such a call is answered with the
 * reason instead of running, and the run asks for it once more (retry-values.ts).
 *
 * Only addresses: other values are the model's to word ("buy milk" for
 * "remember to buy milk", "price" for "cheapest first").
 */
import type { AgentEvent } from '../../session/event';
import type { JsonSchema } from '../../tools/declaration';
import type { TurnProcessor } from '../types';
import { refusal } from '../call-processors/refusal';

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
  }
};

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
