/**
 * What became of a person's decision when the agent closed while carrying it
 * out: stored or not, and whether the tool ran. The page saw part of it (the
 * decision's event, the tool's start); for the rest it reads the session's
 * store itself, since the worker that wrote it is gone. So the rejection of
 * approve() says what is true, and what the person can still do.
 */
import { AgentError } from '../errors';
import { openIdbSessionStore } from '../session/idb-store';

export interface DecisionSeen {
  callId: string;
  granted: boolean;
  /** The decision's event reached the page (it is stored). */
  sawDecision: boolean;
  /** The page started the tool (so the decision was stored). */
  toolStarted: boolean;
  storage?: 'indexeddb' | 'memory';
  dbName: string;
  sessionId: string;
}

export async function closedDuringDecision(seen: DecisionSeen, cause: AgentError): Promise<AgentError> {
  const decisionStored = seen.sawDecision || seen.toolStarted || (await inStore(seen));
  const { callId } = seen;
  const what = seen.granted ? 'approval' : 'rejection';
  const details = { ...(cause.details as object | undefined), callId, decisionStored, toolRan: seen.toolStarted };
  let message: string;
  if (!decisionStored)
    message =
      seen.storage === 'memory'
        ? `This agent was closed before your ${what} of call "${callId}" was stored: it was not stored, and the session, kept in memory, closed with the agent.`
        : `This agent was closed before your ${what} of call "${callId}" was stored: it was not stored, and the call still waits for a decision. Create the agent again on this session and decide again (agent.pendingApprovals()).`;
  else if (seen.toolStarted)
    message = `This agent was closed while it carried out your approval of call "${callId}": the decision was stored and the tool ran (if the close cut it short, its call is answered "aborted" or "interrupted").`;
  else
    message = seen.granted
      ? `This agent was closed while it carried out your approval of call "${callId}": the decision was stored, but the tool did not run. Its call is answered "interrupted" when the session opens again and cannot be approved again; ask for it to be done again.`
      : `This agent was closed after your rejection of call "${callId}" was stored; the tool did not run.`;
  return new AgentError('closed', message, { cause, details });
}

/** Whether the session's store holds the decision; memory closed with the worker. */
async function inStore(seen: DecisionSeen): Promise<boolean> {
  if (seen.storage !== 'indexeddb') return false;
  const store = await openIdbSessionStore({ dbName: seen.dbName });
  try {
    const session = await store.get(seen.sessionId);
    if (!session) return false;
    // The decision is among the last events: nothing else runs on the session while a decision is carried out.
    const recent = await store.events(seen.sessionId, { afterSeq: Math.max(0, session.lastSeq - 64) });
    return recent.some((event) => event.actions?.approval?.callId === seen.callId);
  } finally {
    store.close();
  }
}
