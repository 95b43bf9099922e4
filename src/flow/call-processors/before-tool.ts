/**
 * The before-tool callbacks of one call. They may change the arguments
 * ({ args }: checked again against the tool's JSON Schema) or answer without
 * running the tool ({ result }). Their values enter the session and the
 * model's next prompt, so they must be plain JSON data (callback-value.ts).
 */
import { validateWithJsonSchema } from '../../tools/validate-args';
import { plain } from '../callback-value';
import { runCallback } from '../run-callback';
import type { CallProcessor } from '../types';
import { refusal } from './refusal';

export const beforeTool: CallProcessor = async (inv, turn, call) => {
  if (call.response || !call.declaration || !inv.hooks.has.beforeTool) return;
  const { id, name } = call.call;
  const value = (await runCallback(
    inv,
    () => inv.hooks.beforeTool({ callId: id, name, args: call.args }),
    'beforeTool',
  )) as { args?: unknown; result?: unknown } | undefined;
  if (!value || typeof value !== 'object') return;
  if ('result' in value) {
    call.response = {
      response: { id, name, response: plain(value.result, 'beforeTool', 'result') },
      ms: performance.now() - turn.t0,
    };
    return;
  }
  if (!('args' in value)) return;
  const args = plain(value.args, 'beforeTool', 'args');
  const valid = validateWithJsonSchema(call.declaration, args);
  if (!valid.ok) {
    call.response = refusal(turn, call, `beforeTool gave arguments that do not fit: ${valid.error.message}`);
    return;
  }
  call.args = args;
};
