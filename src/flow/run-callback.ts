/**
 * A page callback (or any page hook) as the loop runs it: it ends with the
 * run's abort, and its failure ends the run with a clear error instead of
 * leaving it stuck. A dead worker's error passes through untouched, and so
 * does a callback-failed error the page made itself (it names the callback
 * that threw, e.g. onApproval inside the approval hop).
 */
import { AgentError, isAgentGone, messageOf, runAbortedError } from '../errors';
import { raceAbort } from './abortable';
import type { Invocation } from './types';

export async function runCallback<T>(
  inv: Pick<Invocation, 'signal'>,
  call: () => Promise<T>,
  name: string,
): Promise<T> {
  try {
    return await raceAbort(call(), inv.signal);
  } catch (error) {
    if (inv.signal.aborted) throw runAbortedError();
    if (isAgentGone(error) || (error instanceof AgentError && error.code === 'callback-failed')) throw error;
    throw new AgentError(
      'callback-failed',
      `The ${name} callback threw: ${messageOf(error)}. Fix the callback; the run was stopped.`,
      { cause: error },
    );
  }
}
