/**
 * inpageChatTransport: useChat's ChatTransport over a whole agent: page tools,
 * sessions in IndexedDB, approvals, crash recovery. The chat's id is the
 * agent's session id. What the chat sends decides what runs:
 *
 * - a new user message: agent.run(text);
 * - the assistant message with approval responses (addToolApprovalResponse):
 *   agent.approve / agent.reject for each call that waits, in order;
 * - reconnectToStream (useChat's `resume`, e.g. after a reload): agent.resume()
 *   goes on with a run the reload cut off, and the stream replays that run's
 *   message from its start (resumeStreamIsReplay).
 *
 * Stop aborts the run. The session's log is append-only, so what would rewrite
 * it (regenerate, editing a sent message) is refused with 'unsupported'.
 */
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { AgentError, type Agent, type AgentEvent, type RunOptions } from '../index';
import { AgentEvents } from './agent-events';
import { approvalResponses, toolCallIds } from './approvals';
import { checkTransportArguments } from './entry-arguments';
import { EventChunks } from './event-chunks';
import { lastTurn } from './ui-messages';

export interface InpageChatTransportOptions {
  /** Options for each run: `ifBusy`, `toolChoice`. The chat's own abort signal is added. */
  runOptions?: Omit<RunOptions, 'signal'>;
}

type SendOptions = Parameters<ChatTransport<UIMessage>['sendMessages']>[0];
type ReconnectOptions = Parameters<ChatTransport<UIMessage>['reconnectToStream']>[0];

export function inpageChatTransport(
  agent: Agent,
  options: InpageChatTransportOptions = {},
): ChatTransport<UIMessage> & { readonly resumeStreamIsReplay: true } {
  checkTransportArguments(agent, options);
  const runOptions = options.runOptions ?? {};

  function checkChat(chatId: string): void {
    if (chatId !== agent.sessionId)
      throw new AgentError(
        'invalid-options',
        `useChat's id "${chatId}" is not this agent's session "${agent.sessionId}": the chat id is the session id. Pass useChat({ id: agent.sessionId }), or createAgent({ sessionId }) with the chat's id.`,
      );
  }

  return {
    resumeStreamIsReplay: true,

    async sendMessages({ trigger, chatId, messageId, messages, abortSignal }: SendOptions) {
      checkChat(chatId);
      if (trigger === 'regenerate-message')
        throw new AgentError(
          'unsupported',
          "An agent's session keeps every message it answered, so an answer cannot be generated again in its place. Send the question again as a new message.",
        );
      const target = (messageId && messages.find((message) => message.id === messageId)) || messages.at(-1);
      if (target?.role === 'user') {
        if (target !== messages.at(-1))
          throw new AgentError(
            'unsupported',
            "A sent message cannot be edited: the agent's session keeps it as it was answered. Send the new words as a new message.",
          );
        return chunkStream(runChunks(agent.run(textOf(target), { ...runOptions, signal: abortSignal })));
      }
      if (target?.role === 'assistant') return chunkStream(decisionChunks(agent, target, runOptions, abortSignal));
      throw new AgentError('invalid-options', 'useChat sent no message to answer: send a user message.');
    },

    async reconnectToStream({ chatId, abortSignal }: ReconnectOptions) {
      checkChat(chatId);
      const stored = (await agent.sessions.get(agent.sessionId))?.events ?? [];
      const events = agent.resume({ ...runOptions, signal: abortSignal });
      const first = await events.next();
      if (first.done) return null;
      return chunkStream(resumedChunks(stored, first.value, events));
    },
  };
}

/**
 * A new message's run. The message starts with the stored user message: what
 * comes before it answers older messages (a superseded approval, an interrupted
 * call), which the mapper leaves out, but an ending before it (a refused start) still counts.
 */
async function* runChunks(events: AsyncGenerator<AgentEvent>): AsyncGenerator<UIMessageChunk> {
  const chunks = new EventChunks();
  let started = false;
  for await (const event of events) {
    if (!started && event.content?.role === 'user') {
      started = true;
      yield { type: 'start', messageId: event.invocationId };
    } else yield* chunks.push(event);
  }
  yield* ending(chunks);
}

/** The person's decisions on the calls that wait, one after the other; the run goes on after the last. */
async function* decisionChunks(
  agent: Agent,
  message: UIMessage,
  runOptions: Omit<RunOptions, 'signal'>,
  signal: AbortSignal | undefined,
): AsyncGenerator<UIMessageChunk> {
  const waiting = new Set((await agent.pendingApprovals()).map((call) => call.callId));
  const responses = approvalResponses(message);
  const decisions = responses.filter((decision) => waiting.has(decision.callId));
  const chunks = new EventChunks(toolCallIds(message));
  yield { type: 'start', messageId: message.id };
  // A response to a call that waits no more (decided in another tab, or before a reload) gets what became of
  // the call, so that no part stays answered-but-unsent, which would make useChat send it again and again.
  const settled = responses.filter((decision) => !waiting.has(decision.callId)).map((decision) => decision.callId);
  if (settled.length) yield* outcomes(agent, settled);
  // approve() and reject() give their run's events at its end; the agent's `event`s give them as they come.
  const queue = new AgentEvents(agent);
  try {
    const decided = (async () => {
      for (const { callId, approved, reason } of decisions) {
        const options = { ...runOptions, signal };
        await (approved ? agent.approve(callId, options) : agent.reject(callId, reason, options));
      }
    })();
    for await (const event of queue.until(decided)) yield* chunks.push(event);
  } finally {
    queue.close();
  }
  yield* ending(chunks);
}

/** A run a reload cut off: its message as stored, then what the resumed run adds. */
async function* resumedChunks(
  stored: readonly AgentEvent[],
  first: AgentEvent,
  rest: AsyncGenerator<AgentEvent>,
): AsyncGenerator<UIMessageChunk> {
  const turn = lastTurn(stored);
  const chunks = new EventChunks();
  const replayed = new Set<string>();
  yield { type: 'start', ...(turn && { messageId: turn.messageId }) };
  for (const event of turn?.events ?? []) {
    replayed.add(event.id);
    yield* chunks.push(event);
  }
  for await (const event of prepend(first, rest)) if (!replayed.has(event.id)) yield* chunks.push(event);
  yield* ending(chunks);
}

/** What became of calls that wait no more, read from the session (tool results and denials only). */
async function* outcomes(agent: Agent, callIds: string[]): AsyncGenerator<UIMessageChunk> {
  const stored = (await agent.sessions.get(agent.sessionId))?.events ?? [];
  const reader = new EventChunks(callIds);
  const told = new Set<string>();
  for (const chunk of stored.flatMap((event) => reader.push(event))) {
    if (
      chunk.type !== 'tool-output-available' &&
      chunk.type !== 'tool-output-error' &&
      chunk.type !== 'tool-output-denied'
    )
      continue;
    if (!callIds.includes(chunk.toolCallId) || told.has(chunk.toolCallId)) continue;
    told.add(chunk.toolCallId);
    yield chunk;
  }
  for (const callId of callIds)
    if (!told.has(callId))
      yield {
        type: 'tool-output-error',
        toolCallId: callId,
        errorText: 'This call no longer waits for approval.',
        providerExecuted: true,
      };
}

function* ending(chunks: EventChunks): Generator<UIMessageChunk> {
  yield* chunks.end();
  // Thrown, not sent as an error chunk: useChat's `error` is then the AgentError itself, with its code.
  if (chunks.failure) throw chunks.failure;
}

async function* prepend<T>(first: T, rest: AsyncIterable<T>): AsyncGenerator<T> {
  yield first;
  yield* rest;
}

/**
 * One chunk per pull: when the run fails, nothing sits in the stream's queue
 * that erroring it would drop. Cancelling the stream (useChat's Stop) ends the run.
 */
function chunkStream(chunks: AsyncGenerator<UIMessageChunk>): ReadableStream<UIMessageChunk> {
  return new ReadableStream<UIMessageChunk>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

function textOf(message: UIMessage): string {
  const texts: string[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'file')
      throw new AgentError(
        'unsupported',
        `The agent reads text only, and this message holds a file (${part.mediaType}). Describe it in words, or give the page a tool that reads it.`,
      );
  }
  return texts.join('\n\n');
}
