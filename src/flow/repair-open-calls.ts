/**
 * Calls a crash left open (session/repair.ts) are answered 'interrupted'
 * through the recorder, so the model reads a well-formed history. Only
 * under the session's lock: no live run can own a call then.
 */
import { interruptedAnswers, interruptedCalls } from '../session/repair';
import { REPAIR_RUN } from '../session/run-ids';
import { withSessionLockIfFree } from '../session/session-lock';
import type { Session } from '../session/store';
import { record, standalone } from './record';
import type { EventDraft, RecordTarget } from './types';

/** Under the lock a run holds. */
export async function repairOpenCalls(target: RecordTarget, session: Session): Promise<void> {
  const open = await interruptedCalls(target.store, session);
  for (const draft of interruptedAnswers(target.sessionId, open)) await record(target, draft as EventDraft);
}

/**
 * A session opened while no run holds it answers its interrupted calls at
 * once, so every view shows them so. Best effort: a run repairs them under
 * its lock anyway, and a full disk must not stop an agent from starting (it
 * is how a person reaches agent.sessions.delete).
 */
export async function repairIfIdle(
  base: Pick<RecordTarget, 'sessionId' | 'store' | 'emit'>,
  session: Session,
): Promise<void> {
  await withSessionLockIfFree(base.sessionId, () => repairOpenCalls(standalone(base, REPAIR_RUN), session)).catch(
    () => undefined,
  );
}
