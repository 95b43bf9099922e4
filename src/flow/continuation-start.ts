/**
 * How a run that a reload or a crash cut off goes on (agent.resume): the
 * session's last invocation, if it never ended, takes its next model step
 * from the history as stored. Calls it left open were answered 'interrupted'
 * before this is decided (start-run.ts with
 * repair-open-calls.ts), so no tool runs again on its own.
 * An invocation that ended, or paused on purpose (awaiting-approval,
 * long-running: both are endings), has nothing to go on with. A stopped run
 * stays stopped: a repair's answers after its ending (as a log written
 * before a stop answered its calls gets them) say only that calls were cut
 * off, so the event before them decides.
 */
import type { AgentEvent } from '../session/event';
import { isInterruptedAnswer } from '../session/repair';
import { isOutsideRun } from '../session/run-ids';
import type { RunStart } from './types';

export function continuationStart(history: readonly AgentEvent[]): RunStart {
  const last = history.findLast(
    (event) => !event.partial && !event.late && !isOutsideRun(event.invocationId) && !isInterruptedAnswer(event),
  );
  if (!last || last.endReason) return { kind: 'nothing' };
  return { kind: 'continue', before: [], invocationId: last.invocationId };
}
