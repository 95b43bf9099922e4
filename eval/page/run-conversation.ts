/**
 * One conversation on one agent's session: a fresh page, then each request
 * as the visitor sends it (agent.send, the whole loop: real worker, the
 * demo's tools acting on the page, the visitor answering approvals), judged
 * by the page before and after it and by the run's calls and reply. A run
 * that fails is a result too, and the conversation goes on.
 */
import { isAgentError, type Agent } from '../../src/index';
import type { ArmName } from '../arms/arm';
import type { ApprovalDesk } from './approval-desk';
import type { Conversation } from './expectation';
import { judgeRequest } from './judge-request';
import { mountPageParts } from './page-parts';
import type { PageResult } from './page-result';
import { readPageState } from './page-state';
import { PAGE_TOOL_NAMES } from './page-tool-names';
import { recordOfRun } from './run-record';

export interface ConversationRun {
  agent: Agent;
  /** The agent's onApproval. */
  desk: ApprovalDesk;
  conversation: Conversation;
  arm: ArmName;
  modelLabel: string;
  /** Starting the agent, counted on the conversation's first request (0 when it was already started). */
  startSeconds?: number;
  signal?: AbortSignal;
  /** Before each request, its index in the conversation. */
  onRequest?: (index: number) => void;
}

export async function* runConversation(run: ConversationRun): AsyncGenerator<PageResult> {
  const { agent, desk, conversation, arm, modelLabel, signal } = run;
  mountPageParts();
  const ranEarlier = new Set<string>();
  for (const [index, request] of conversation.requests.entries()) {
    if (signal?.aborted) return;
    run.onRequest?.(index);
    const base = {
      suite: 'page' as const,
      id: `${conversation.id}/${index + 1}`,
      conversation: conversation.id,
      request: request.text,
      kinds: request.kinds,
      arm,
      model: modelLabel,
      startSeconds: index === 0 ? (run.startSeconds ?? 0) : 0,
    };
    const before = readPageState();
    desk.open(request.expect.approves);
    const t0 = performance.now();
    let result: Awaited<ReturnType<Agent['send']>>;
    try {
      result = await agent.send(request.text, { signal });
    } catch (error) {
      yield failed(base, error, (performance.now() - t0) / 1000);
      continue;
    }
    const seconds = (performance.now() - t0) / 1000;
    const after = readPageState();
    const record = recordOfRun(result.events);
    const error = result.error && `${result.error.code}: ${result.error.message}`;
    if (result.endReason === 'error' && record.steps === 0) {
      yield failed(base, error, seconds);
      continue;
    }
    const judged = judgeRequest(request, record, {
      before,
      after,
      tools: PAGE_TOOL_NAMES,
      ranEarlier,
      approvals: desk.approvals,
    });
    for (const call of record.calls) if (call.outcome === 'ran') ranEarlier.add(call.name);
    yield {
      ...base,
      ...judged,
      unbackedClaims: judged.unbackedClaims.map(({ phrase, verb }) => ({ phrase, verb })),
      calls: record.calls,
      reply: record.reply,
      approvals: [...desk.approvals],
      ...(result.endReason && { endReason: result.endReason }),
      ...(error && { error }),
      page: after,
      promptTokens: record.promptTokens,
      prefilledTokens: record.prefilledTokens,
      completionTokens: record.completionTokens,
      steps: record.steps,
      decisions: record.decisions,
      replacedClaims: record.replacedClaims,
      seconds,
    };
  }
}

type Base = Pick<PageResult, 'suite' | 'id' | 'conversation' | 'request' | 'kinds' | 'arm' | 'model' | 'startSeconds'>;

const NOTHING = {
  calls: [],
  reply: '',
  callsWhereNoneFits: 0,
  unaskedCalls: 0,
  unknownTools: 0,
  unreadableCalls: 0,
  repeatedCalls: 0,
  callsInReply: 0,
  unaskedApprovals: 0,
  emptyReply: false,
  unbackedClaims: [],
  approvals: [],
  promptTokens: 0,
  completionTokens: 0,
  steps: 0,
};

function failed(base: Base, error: unknown, seconds: number): PageResult {
  const why = isAgentError(error)
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
  return { ...base, ...NOTHING, verdict: 'error', why: [why], error: why, seconds };
}
