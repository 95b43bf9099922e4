/**
 * The first step of every call, before anyone is asked and before any page
 * code runs: the worker checks the call against its tool's JSON Schema. A
 * call to no tool, or with arguments that do not fit, is answered with every
 * failing field, so the model can correct itself; it never reaches the page.
 * The page checks the arguments once more, with the tool's own schema, where
 * they are parsed (approval-gate.ts, or when the call runs).
 */
import { validateWithJsonSchema } from '../../tools/validate-args';
import { isBuiltin } from '../agents';
import type { Invocation, TurnProcessor } from '../types';
import { refusal } from './refusal';

export const validateCalls: TurnProcessor = (inv, turn) => {
  for (const call of turn.calls) {
    if (call.response || isBuiltin(call.call.name)) continue;
    if (!call.declaration) {
      call.response = refusal(turn, call, unknownToolMessage(inv, call.call.name), 'unknown-tool');
      continue;
    }
    const valid = validateWithJsonSchema(call.declaration, call.args);
    if (!valid.ok) call.response = refusal(turn, call, valid.error.message, valid.error.code);
  }
};

function unknownToolMessage(inv: Invocation, name: string): string {
  const names = [...inv.tools.keys()];
  return `There is no tool named "${name}". Call one of: ${names.length ? names.join(', ') : '(no tools)'}, or answer in plain text.`;
}
