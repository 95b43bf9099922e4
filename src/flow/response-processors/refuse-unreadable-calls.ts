/** Calls the model tried to make but that could not be read are answered with the reason, so it can correct itself. */
import { newId } from '../../session/event';
import type { ResponseProcessor } from '../types';

export const refuseUnreadableCalls: ResponseProcessor = (_inv, processed) => {
  for (const bad of processed.response.callErrors) {
    const id = newId('call');
    processed.refused.set(id, bad.message);
    processed.calls.push({
      id,
      name: bad.name ?? 'unreadable_tool_call',
      args: { raw: bad.raw },
      ...(bad.id && { modelCallId: bad.id }),
    });
  }
};
