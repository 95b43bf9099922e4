/**
 * The prompt describes the run's tools; a step allows only some of them
 * (`allowedTools`, e.g. what the toolkit graph recommends now). A call to a
 * described tool the step does not allow is answered with the reason and
 * never runs, whatever the model (or an engine without a grammar) wrote.
 */
import type { ResponseProcessor } from '../types';

export const holdToAllowedTools: ResponseProcessor = (_inv, processed) => {
  const allowed = processed.request.allowedTools;
  if (!allowed) return;
  const names = new Set(allowed);
  for (const call of processed.calls) {
    if (processed.refused.has(call.id) || names.has(call.name)) continue;
    processed.refused.set(call.id, {
      message: allowed.length
        ? `The tool "${call.name}" may not be called in this step. The tools you can call now are: ${allowed.join(', ')}. Call one of them, or answer in plain text.`
        : `No tool may be called in this step: answer in plain text.`,
      code: 'tool-not-allowed',
    });
  }
};
