/**
 * What one request's run did, read from its events: each call with its
 * arguments and how it ended, everything the model said (the reply a visitor
 * reads, every step's words), and the tokens its steps read and wrote.
 */
import type { AgentEvent, FunctionResponse } from '../../src/index';
import type { StepDecision } from '../../src/session/event';
import { refusalOf } from '../../src/session/run-calls';
import type { CallRecord } from './call-record';
import type { CallOutcome } from './expectation';

export interface RunRecord {
  calls: CallRecord[];
  reply: string;
  promptTokens: number;
  /** The prompt tokens its steps read from scratch, not found in the engine's cache (where the engine tells: llama.cpp). */
  prefilledTokens: number;
  completionTokens: number;
  /** Model steps the run recorded (a step the decision layer asked again is not recorded, nor counted in the tokens). */
  steps: number;
  /** What the decision layer decided before its steps (ours; none with the layer off). */
  decisions: StepDecision[];
  /** Replies the runtime replaced by "nothing was done" for claiming what no call did, with what they claimed. */
  replacedClaims: string[];
}

/** The name the runtime records a call under when it could not be read (flow's refuse-unreadable-calls). */
export const UNREADABLE_CALL = 'unreadable_tool_call';

export function recordOfRun(events: readonly AgentEvent[]): RunRecord {
  const calls = new Map<string, CallRecord>();
  const said: string[] = [];
  let promptTokens = 0;
  let prefilledTokens = 0;
  let completionTokens = 0;
  let steps = 0;
  const decisions: StepDecision[] = [];
  const replacedClaims: string[] = [];
  for (const event of events) {
    if (event.partial || event.late) continue;
    const role = event.content?.role;
    if (role === 'model') {
      steps++;
      promptTokens += event.usage?.promptTokens ?? 0;
      prefilledTokens += (event.usage?.promptTokens ?? 0) - (event.usage?.cachedPromptTokens ?? 0);
      completionTokens += event.usage?.completionTokens ?? 0;
      if (event.decision) decisions.push(event.decision);
      for (const claim of event.unperformedClaims ?? []) replacedClaims.push(claim.sentence);
    }
    for (const part of event.content?.parts ?? []) {
      if (role === 'model' && 'text' in part && part.text.trim()) said.push(part.text.trim());
      if ('functionCall' in part) {
        const { id, name, args } = part.functionCall;
        // Not answered yet: a run that ended (an error, the step limit) before the call's turn was handled.
        calls.set(id, { name, args, outcome: 'refused', error: 'no answer: the run ended first' });
      }
      if ('functionResponse' in part) {
        const call = calls.get(part.functionResponse.id);
        if (call) Object.assign(call, answered(part.functionResponse));
      }
    }
  }
  return {
    calls: [...calls.values()],
    reply: said.join('\n'),
    promptTokens,
    prefilledTokens,
    completionTokens,
    steps,
    decisions,
    replacedClaims,
  };
}

function answered(response: FunctionResponse): Pick<CallRecord, 'outcome' | 'result' | 'error' | 'code'> {
  if (response.error === undefined) return { outcome: 'ran', result: response.response, error: undefined };
  return { outcome: outcomeOf(response.code), error: response.error, ...(response.code && { code: response.code }) };
}

/** A person's no; a call the runtime never ran (session/run-calls.ts says which); else the tool failed. */
function outcomeOf(code: string | undefined): CallOutcome {
  if (code === 'tool-rejected') return 'not-approved';
  if (!code || refusalOf(code)) return 'refused';
  return 'failed';
}
