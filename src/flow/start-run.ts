/**
 * One run of a session, under the session's lock: read the session once,
 * answer the calls a crash left open (no live run can own them while we hold
 * the lock), decide how the run starts (which may refuse, e.g. a decision for
 * a call that is not pending), then run the loop.
 */
import { AgentError, isAgentGone, messageOf } from '../errors';
import type { ToolChoice } from '../model/engine';
import { newId, type AgentEvent, type EndReason } from '../session/event';
import { readRecent } from '../session/recent-events';
import { STORAGE_RUN } from '../session/run-ids';
import { withSessionLock } from '../session/session-lock';
import type { Session } from '../session/store';
import { droppedResultsNotice } from './dropped-results';
import { record } from './record';
import { repairOpenCalls } from './repair-open-calls';
import { runInvocation } from './run-invocation';
import { newRunState } from './run-state';
import type { AgentContext, EventDraft, Invocation, RecordTarget, RunStart } from './types';

export interface StartOptions {
  ifBusy: 'wait' | 'fail';
  signal: AbortSignal;
  /** This run's tool choice; absent: the agent's. */
  toolChoice?: ToolChoice;
  emit(event: AgentEvent): void;
}

/** A run under way. */
export interface RunHandle {
  /** Resolves once the run is under way (or has ended with an error event); rejects when the start was refused. */
  accepted: Promise<void>;
  /** Resolves when the run is over. */
  done: Promise<EndReason | undefined>;
}

export function startRun(
  ctx: AgentContext,
  prepare: (session: Session, history: readonly AgentEvent[]) => RunStart,
  options: StartOptions,
): RunHandle {
  let accept!: () => void;
  let refuse!: (error: unknown) => void;
  const accepted = new Promise<void>((resolve, reject) => ((accept = resolve), (refuse = reject)));
  const done = withSessionLock(ctx.sessionId, options, async () => {
    const { session, history } = await readForRun(ctx, options.emit);
    let start: RunStart;
    try {
      start = prepare(session, history);
    } catch (error) {
      refuse(error);
      return undefined;
    }
    accept();
    const inv: Invocation = {
      ...ctx,
      invocationId: start.invocationId ?? newId('inv'),
      history,
      state: { ...session.state },
      signal: options.signal,
      emit: options.emit,
      toolChoice: options.toolChoice ?? ctx.toolChoice,
      run: newRunState(),
    };
    return runInvocation(inv, start);
  }).catch((error: unknown) => {
    if (isAgentGone(error)) throw error;
    // Before the loop (the lock, the first read): the run ends with an error event all the same.
    const agentError = error instanceof AgentError ? error : new AgentError('model-failed', messageOf(error));
    options.emit({
      type: 'end',
      id: newId('ev'),
      seq: 0,
      sessionId: ctx.sessionId,
      invocationId: newId('inv'),
      author: 'system',
      timestamp: Date.now(),
      error: agentError.toJSON(),
      endReason: agentError.code === 'aborted' ? 'aborted' : 'error',
    });
    accept();
    return agentError.code === 'aborted' ? ('aborted' as const) : ('error' as const);
  });
  accepted.catch(() => undefined);
  return { accepted, done };
}

/**
 * The session and its recent events, with the calls a crash left open
 * answered 'interrupted', and stored results a prompt cannot replay named. A session the storage lost (site data cleared,
 * deleted in another tab) starts again, and says so.
 */
async function readForRun(
  ctx: AgentContext,
  emit: (event: AgentEvent) => void,
): Promise<{ session: Session; history: AgentEvent[] }> {
  const recent = await readRecent(ctx.store, ctx.sessionId);
  let session = recent?.session;
  const history = recent?.events ?? [];
  const target: RecordTarget = { ...ctx, invocationId: STORAGE_RUN, history, state: {}, emit };
  if (!session) {
    session = await ctx.store.create({ id: ctx.sessionId, appName: ctx.appName, userId: ctx.userId });
    await record(target, sessionLostNotice());
  }
  await repairOpenCalls(target, session);
  const dropped = droppedResultsNotice(history);
  if (dropped) await record(target, dropped);
  return { session, history };
}

function sessionLostNotice(): EventDraft {
  return {
    author: 'system',
    notices: [
      {
        code: 'session-lost',
        message:
          "This session was no longer in the browser's storage (the site's data was cleared, or another tab deleted it), so it starts again here.",
      },
    ],
  };
}
