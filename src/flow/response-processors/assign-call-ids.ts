/**
 * Every call gets a fresh id of the runtime's. Small models reuse ids
 * ("call_0" every turn) and a hostile one reuses an approved id on purpose;
 * the model's own id is kept aside and decides nothing.
 */
import { newId } from '../../session/event';
import type { ResponseProcessor } from '../types';

export const assignCallIds: ResponseProcessor = (_inv, processed) => {
  for (const call of processed.calls) {
    if (call.id) call.modelCallId = call.id;
    call.id = newId('call');
  }
};
