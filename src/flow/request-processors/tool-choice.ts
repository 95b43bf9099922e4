/**
 * The run's tool choice for this step. 'required' and a named tool hold for
 * the run's first model step only: once the tool has been called, the model
 * must be free to answer, or the run could only end at maxSteps.
 */
import type { RequestProcessor } from '../types';

export const toolChoiceProcessor: RequestProcessor = (inv, request) => {
  const choice = inv.toolChoice;
  if (!choice || choice === 'auto') return;
  if (choice === 'none') {
    request.toolChoice = 'none';
    return;
  }
  const steppedBefore = inv.history.some(
    (event) => event.invocationId === inv.invocationId && event.content?.role === 'model',
  );
  if (!steppedBefore) request.toolChoice = choice;
};
