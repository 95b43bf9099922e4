/**
 * The last step of a turn: the responses of its calls as the one tool event
 * that records them (parallel calls are answered by one merged event, after
 * ADK), and how the turn ends: on, return-direct, a fatal tool error, or
 * long-running calls.
 */
import { AgentError } from '../../errors';
import type { EndReason } from '../../session/event';
import { functionResponses } from '../../session/parts';
import { isBuiltin } from '../agents';
import { record } from '../record';
import type { CallResponse, CallsOutcome, EventDraft, Invocation, Turn } from '../types';

export interface MergedResponses {
  /** The event with every response that arrived; undefined when all calls are long-running. */
  event?: EventDraft;
  /** Calls whose response comes later (agent.resolveTool). */
  longRunning: string[];
  endReason?: EndReason;
}

/** Records the turn's responses (every call has one by now) and says how the turn ends. */
export async function recordTurn(inv: Invocation, turn: Turn): Promise<CallsOutcome> {
  const responses = turn.calls.map((call) => call.response!);
  const merged = mergeResponses(responses, turn.agentName, timingOf(turn));
  if (merged.event) {
    const stored = await recordResponses(inv, merged.event);
    if (stored === 'quota-exceeded') return { kind: 'end', reason: 'error' };
  }
  if (merged.endReason === 'error') return { kind: 'end', reason: 'error' };
  for (const r of responses)
    if (!r.response.error && !isBuiltin(r.response.name)) inv.selector?.afterCall(r.response.name);
  if (merged.longRunning.length) {
    await record(inv, {
      author: turn.agentName,
      longRunningToolIds: merged.longRunning,
      endReason: 'long-running',
      artifacts: longRunningArtifacts(responses, merged.longRunning),
    });
  }
  return merged.endReason ? { kind: 'end', reason: merged.endReason } : { kind: 'continue' };
}

export function timingOf(turn: Turn): { startedAt: number; ms: number } {
  return { startedAt: turn.startedAt, ms: performance.now() - turn.t0 };
}

export function mergeResponses(
  responses: readonly CallResponse[],
  agentName: string,
  timing: { startedAt: number; ms: number },
): MergedResponses {
  const stateDelta = Object.assign({}, ...responses.map((r) => r.stateDelta ?? {})) as Record<string, unknown>;
  const artifacts = Object.fromEntries(
    responses.filter((r) => r.artifact !== undefined).map((r) => [r.response.id, r.artifact]),
  );
  const transfer = responses.find((r) => r.transferTo);
  const longRunning = responses.filter((r) => r.longRunning).map((r) => r.response.id);
  const fatal = responses.find((r) => r.fatal)?.fatal;
  const ends = responses.find((r) => r.ends)?.ends;
  const notices = responses.flatMap((r) => r.notices ?? []);
  // A fatal error ends the turn at once; calls still out (long-running) outrank a return-direct answer.
  const endReason: EndReason | undefined = fatal
    ? 'error'
    : ends
      ? ends.reason
      : longRunning.length
        ? 'long-running'
        : responses.some((r) => r.final)
          ? 'return-direct'
          : undefined;
  const done = responses.filter((r) => !r.longRunning);
  if (!done.length) return { longRunning, endReason };
  const actions = compact({
    stateDelta: Object.keys(stateDelta).length ? stateDelta : undefined,
    transferToAgent: transfer?.transferTo,
    escalate: transfer?.escalate,
  });
  return {
    longRunning,
    endReason,
    event: {
      author: agentName,
      content: { role: 'tool', parts: done.map((r) => ({ functionResponse: r.response })) },
      ...(actions && { actions }),
      ...(Object.keys(artifacts).length && { artifacts }),
      ...(notices.length && { notices }),
      toolTimings: Object.fromEntries(responses.map((r) => [r.response.id, r.ms])),
      timing,
      // With long-running calls the run ends on the event that names them, after this one.
      ...(endReason && endReason !== 'long-running' && { endReason }),
      ...(fatal && { error: { code: fatal.code, message: `A tool stopped the run: ${fatal.message}` } }),
      ...(!fatal && ends && { error: { code: ends.code, message: ends.message } }),
    },
  };
}

/** What the event naming long-running calls keeps of their first responses (e.g. a ticket number). */
function longRunningArtifacts(responses: readonly CallResponse[], ids: readonly string[]) {
  const picked = Object.fromEntries(
    responses
      .filter((r) => ids.includes(r.response.id) && r.response.response !== undefined)
      .map((r) => [r.response.id, r.response.response]),
  );
  return Object.keys(picked).length ? picked : undefined;
}

/**
 * When the responses do not fit the storage quota, every call is still
 * answered (with that error, in a small event) so none is left open, and the
 * run ends.
 */
async function recordResponses(inv: Invocation, draft: EventDraft): Promise<'stored' | 'quota-exceeded'> {
  try {
    await record(inv, draft);
    return 'stored';
  } catch (error) {
    if (!(error instanceof AgentError) || error.code !== 'quota-exceeded') throw error;
    const parts = functionResponses(draft).map((response) => ({
      functionResponse: { ...response, response: null, error: `The result could not be stored: ${error.message}` },
    }));
    try {
      await record(inv, {
        author: draft.author,
        content: { role: 'tool', parts },
        error: { code: error.code, message: error.message },
        endReason: 'error',
      });
    } catch {
      throw error;
    }
    return 'quota-exceeded';
  }
}

function compact<T extends Record<string, unknown>>(value: T): T | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length ? (Object.fromEntries(entries) as T) : undefined;
}
