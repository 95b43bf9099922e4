/**
 * One run of a session, under the session's lock: read the session once,
 * answer the calls a crash left open (no live run can own them while we hold
 * the lock), decide how the run starts (which may refuse, e.g. a decision for
 * a call that is not pending), then run the loop.
 */
import { AgentError, messageOf } from '../errors';
import type { ToolChoice } from '../model/engine';
import { newId, type AgentEvent, type EndReason } from '../session/event';
import { recentEvents } from '../session/recent-events';
import { interruptedAnswers, interruptedCalls } from '../session/repair';
import { withSessionLock } from '../session/session-lock';
import type { Session } from '../session/store';
import { droppedResultsNotice } from './dropped-results';
import { record, type EventDraft } from './record';
import type { Started } from './resume';
import { runInvocation } from './run-invocation';
import type { AgentContext, Invocation, RecordTarget } from './types';

export interface StartOptions {
  ifBusy: 'wait' | 'fail';
  signal: AbortSignal;
  /** This run's tool choice; absent: the agent's. */
  toolChoice?: ToolChoice;
  emit(event: AgentEvent): void;
}

export interface StartedRun {
  /** Resolves once the run is under way (or has ended with an error event); rejects when the start was refused. */
  accepted: Promise<void>;
  /** Resolves when the run is over. */
  done: Promise<EndReason | undefined>;
}

export function startRun(
  ctx: AgentContext,
  prepare: (session: Session, history: readonly AgentEvent[]) => Started,
  options: StartOptions,
): StartedRun {
  let accept!: () => void;
  let refuse!: (error: unknown) => void;
  const accepted = new Promise<void>((resolve, reject) => ((accept = resolve), (refuse = reject)));
  const done = withSessionLock(ctx.sessionId, options, async () => {
    const { session, history } = await readForRun(ctx, options.emit);
    let start: Started;
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
    };
    return runInvocation(inv, start);
  }).catch((error: unknown) => {
    if (error instanceof AgentError && (error.code === 'worker-crashed' || error.code === 'closed')) throw error;
    // Before the loop (the lock, the first read): the run ends with an error event all the same.
    const agentError = error instanceof AgentError ? error : new AgentError('model-failed', messageOf(error));
    options.emit({
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
  let session = await ctx.store.get(ctx.sessionId);
  const history = session ? await recentEvents(ctx.store, ctx.sessionId, session) : [];
  const target: RecordTarget = { ...ctx, invocationId: 'storage', history, state: {}, emit };
  if (!session) {
    session = await ctx.store.create({ id: ctx.sessionId, appName: ctx.appName, userId: ctx.userId });
    await record(target, sessionLostNotice());
  }
  await repairOpenCalls(target, session);
  const dropped = droppedResultsNotice(history);
  if (dropped) await record(target, dropped);
  return { session, history };
}

/** Answers every call a crash left open, through the recorder, so the model reads a well-formed history. */
export async function repairOpenCalls(target: RecordTarget, session: Session): Promise<void> {
  const open = await interruptedCalls(target.store, session);
  for (const draft of interruptedAnswers(target.sessionId, open)) await record(target, draft as EventDraft);
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
