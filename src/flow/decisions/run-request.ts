import { textOf } from '../../session/parts';
import type { Invocation } from '../types';

/** What the person asked in this run: its user message's text. */
export function runRequest(inv: Invocation): string | undefined {
  const text = (event: (typeof inv.history)[number]) => textOf(event.content?.parts ?? []);
  const asked = inv.history.find(
    (event) => event.invocationId === inv.invocationId && event.content?.role === 'user' && text(event).trim(),
  );
  return asked && text(asked);
}
