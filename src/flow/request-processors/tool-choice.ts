/**
 * The run's tool choice for this step. 'required' and a named tool hold for
 * the run's first model step only: once the tool has been called, the model
 * must be free to answer, or the run could only end at maxSteps. After the
 * run's last round of calls (maxToolRounds, or what the model handles well:
 * ModelInfo.toolRounds), a step may call nothing: it answers in words.
 */
import { countedRounds } from '../decisions/retry-values';
import type { RequestProcessor } from '../types';

export const toolChoiceProcessor: RequestProcessor = (inv, request) => {
  const rounds = inv.limits.maxToolRounds ?? inv.engine.info.toolRounds ?? Infinity;
  const run = inv.history.filter((event) => event.invocationId === inv.invocationId);
  if (countedRounds(inv).length >= rounds) {
    request.toolChoice = 'none';
    return;
  }
  const choice = inv.toolChoice;
  if (!choice || choice === 'auto') return;
  if (choice === 'none') {
    request.toolChoice = 'none';
    return;
  }
  const steppedBefore = run.some((event) => event.content?.role === 'model');
  if (!steppedBefore) request.toolChoice = choice;
};
