/**
 * The step's tool choice is the page's rule, not the model's: a call it does
 * not allow is answered with the reason and never runs, whatever the model
 * (or an engine without a grammar) wrote.
 */
import type { ResponseProcessor } from '../types';

export const holdToToolChoice: ResponseProcessor = (_inv, processed) => {
  const choice = processed.request.toolChoice;
  if (!choice || choice === 'auto' || choice === 'required') return;
  for (const call of processed.calls) {
    if (processed.refused.has(call.id)) continue;
    if (choice === 'none') {
      processed.refused.set(call.id, {
        message: 'No tool may be called in this step: answer in plain text.',
        code: 'tool-not-allowed',
      });
    } else if (call.name !== choice.name) {
      processed.refused.set(call.id, {
        message: `Only ${choice.name} may be called in this step; call it, or answer in plain text.`,
        code: 'tool-not-allowed',
      });
    }
  }
};
