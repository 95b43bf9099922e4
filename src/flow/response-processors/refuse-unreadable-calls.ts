/**
 * Calls the model tried to make but that could not be read are answered with the reason, so it can correct
 * itself. One that names no tool of the page is recorded under a name of ours, never as that tool: a call
 * to "hello" is not a call of a tool named hello (the raw text keeps what the model wrote).
 */
import { newId } from '../../session/event';
import type { ResponseProcessor } from '../types';

const UNREADABLE_CALL = 'unreadable_tool_call';

export const refuseUnreadableCalls: ResponseProcessor = (inv, processed) => {
  for (const bad of processed.response.callErrors) {
    const id = newId('call');
    processed.refused.set(id, { message: bad.message, code: 'unreadable-call' });
    processed.calls.push({
      id,
      name: bad.name !== undefined && inv.tools.has(bad.name) ? bad.name : UNREADABLE_CALL,
      args: { raw: bad.raw },
      ...(bad.id && { modelCallId: bad.id }),
    });
  }
};
