/**
 * The answers of one model turn as the one tool event that records them
 * (parallel calls are answered by one merged event, after ADK), and how the
 * turn ends: on, return-direct, a fatal tool error, or long-running calls.
 */
import type { EndReason } from '../session/event';
import type { Answer } from './answer-call';
import type { EventDraft } from './record';

export interface MergedAnswers {
  /** The event with every answer that arrived; undefined when all calls are long-running. */
  answered?: EventDraft;
  /** Calls whose answer comes later (agent.resolveTool). */
  longRunning: string[];
  endReason?: EndReason;
}

export function mergeAnswers(
  answers: readonly Answer[],
  agentName: string,
  timing: { startedAt: number; ms: number },
): MergedAnswers {
  const stateDelta = Object.assign({}, ...answers.map((a) => a.stateDelta ?? {})) as Record<string, unknown>;
  const artifacts = Object.fromEntries(
    answers.filter((a) => a.artifact !== undefined).map((a) => [a.response.id, a.artifact]),
  );
  const transfer = answers.find((a) => a.transferTo);
  const longRunning = answers.filter((a) => a.longRunning).map((a) => a.response.id);
  const fatal = answers.find((a) => a.fatal)?.fatal;
  const notices = answers.flatMap((a) => a.notices ?? []);
  // A fatal error ends the turn at once; calls still out (long-running) outrank a return-direct answer.
  const endReason: EndReason | undefined = fatal
    ? 'error'
    : longRunning.length
      ? 'long-running'
      : answers.some((a) => a.final)
        ? 'return-direct'
        : undefined;
  const done = answers.filter((a) => !a.longRunning);
  if (!done.length) return { longRunning, endReason };
  const actions = compact({
    stateDelta: Object.keys(stateDelta).length ? stateDelta : undefined,
    transferToAgent: transfer?.transferTo,
    escalate: transfer?.escalate,
  });
  return {
    longRunning,
    endReason,
    answered: {
      author: agentName,
      content: { role: 'tool', parts: done.map((a) => ({ functionResponse: a.response })) },
      ...(actions && { actions }),
      ...(Object.keys(artifacts).length && { artifacts }),
      ...(notices.length && { notices }),
      toolTimings: Object.fromEntries(answers.map((a) => [a.response.id, a.ms])),
      timing,
      // With long-running calls the run ends on the event that names them, after this one.
      ...(endReason && endReason !== 'long-running' && { endReason }),
      ...(fatal && { error: { code: fatal.code, message: `A tool stopped the run: ${fatal.message}` } }),
    },
  };
}

/** What the event naming long-running calls keeps of their first answers (e.g. a ticket number). */
export function longRunningArtifacts(answers: readonly Answer[], ids: readonly string[]) {
  const picked = Object.fromEntries(
    answers
      .filter((a) => ids.includes(a.response.id) && a.response.response !== undefined)
      .map((a) => [a.response.id, a.response.response]),
  );
  return Object.keys(picked).length ? picked : undefined;
}

function compact<T extends Record<string, unknown>>(value: T): T | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length ? (Object.fromEntries(entries) as T) : undefined;
}
