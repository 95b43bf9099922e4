/**
 * What agent.warmup() reads ahead: the request of the first step of the run
 * that the session's next message would start, built now by the same
 * processors as that step (the agent in charge, its instructions, the tools
 * the run would describe with the toolkit graph as it stands, the
 * conversation so far as the window guard keeps it), its last message the
 * user's, whose words are not known yet. The engine reads its prompt up to
 * where those words begin, which is the start of that step's prompt, token
 * for token.
 */
import type { ModelRequest } from '../model/engine';
import { newId, type AgentEvent } from '../session/event';
import { currentAgent } from './agents';
import { buildRequest, defaultRequestProcessors } from './request-processors/build-request';
import { newRunState } from './run-state';
import type { AgentContext, Invocation } from './types';

export async function readAheadRequest(ctx: AgentContext, history: readonly AgentEvent[]): Promise<ModelRequest> {
  const invocationId = newId('inv');
  // The message as the run records it first; its text stands for words to come (the engine does not read it).
  const message: AgentEvent = {
    type: 'user',
    id: newId('msg'),
    sessionId: ctx.sessionId,
    invocationId,
    seq: (history.at(-1)?.seq ?? 0) + 1,
    author: 'user',
    timestamp: Date.now(),
    content: { role: 'user', parts: [{ text: '…' }] },
  };
  const inv: Invocation = {
    ...ctx,
    // Decided when the words come: a decision asks the model, whose turn the read-ahead holds (it would wait for itself).
    decisions: undefined,
    invocationId,
    history: [...history, message],
    state: {},
    signal: new AbortController().signal,
    emit: () => undefined,
    run: newRunState(),
  };
  const agent = inv.agents.get(currentAgent(inv.history, inv.agents, inv.rootAgent))!;
  const { request } = await buildRequest(inv, agent, ctx.requestProcessors ?? defaultRequestProcessors);
  return request;
}
