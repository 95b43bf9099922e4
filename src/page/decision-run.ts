/**
 * A decision's run (approve, reject). If the agent closes meanwhile, the
 * rejection says whether the decision was stored and whether the tool ran
 * (decision-outcome.ts): the page watches for both while it reads the run.
 */
import type * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { SessionsApi } from '../contract/protocol';
import { collectRun } from './collect-run';
import { closedDuringDecision } from './decision-outcome';
import type { RunOptions, RunResult } from './options';
import { runControl, type RunStreams } from './run-stream';
import type { Supervisor } from './supervisor';
import type { ToolHost } from './tool-host';

export interface Decision {
  callId: string;
  granted: boolean;
  reason: string | undefined;
}

/** What a decision's run goes through: the runs, the page's tools (to see the call start), the session's store. */
export interface DecisionRoute {
  streams: RunStreams;
  toolHost: ToolHost;
  supervisor: Supervisor;
  /** The session's calls that wait for a person: the run's result names their arguments. */
  sessions: Comlink.Remote<SessionsApi>;
  dbName: string;
}

export async function decisionRun(decision: Decision, options: RunOptions, route: DecisionRoute): Promise<RunResult> {
  const { callId, granted, reason } = decision;
  const seen = { sawDecision: false, toolStarted: false };
  // The calls this decision's run answers were made in an earlier run: their arguments are known here, not in its events.
  const waiting = await route.sessions.pendingApprovals().catch(() => []);
  route.toolHost.onStart.set(callId, () => (seen.toolStarted = true));
  const command = { kind: 'decision', ...runControl(options), callId, granted, reason } as const;
  const events = route.streams.stream(command, options.signal);
  try {
    return await collectRun(
      (async function* () {
        for await (const event of events) {
          if (event.actions?.approval?.callId === callId) seen.sawDecision = true;
          yield event;
        }
      })(),
      waiting,
    );
  } catch (error) {
    if (!(error instanceof AgentError) || error.code !== 'closed') throw error;
    throw await closedDuringDecision(
      {
        callId,
        granted,
        ...seen,
        storage: route.supervisor.info?.storage,
        dbName: route.dbName,
        sessionId: route.supervisor.sessionId,
      },
      error,
    ).catch(() => error);
  } finally {
    route.toolHost.onStart.delete(callId);
  }
}
