/**
 * A message's run. If the worker dies before the message is known to be
 * stored, the rejection says whether it was; after the restart the page sends
 * an unstored message once more (by its id, so never twice): resend-after-crash.ts.
 */
import type * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { RunCommand, SessionsApi } from '../contract/protocol';
import { checkMessageText } from '../contract/message-text';
import type { AgentEvent } from '../session/event';
import { collectRun } from './collect-run';
import type { RunOptions } from './options';
import { afterCrash } from './resend-after-crash';
import { runControl, type RunStreams } from './run-stream';
import type { Supervisor } from './supervisor';

/** A message this page sent, remembered until it is known to be stored. */
export interface SentMessage {
  id: string;
  text: string;
  options: RunOptions;
  /** Sent again after a crash: never a third time. */
  resent?: boolean;
}

/** What a message's run goes through: the runs, and the worker that says after a crash whether it was stored. */
export interface MessageRoute {
  streams: RunStreams;
  supervisor: Supervisor;
  sessions: Comlink.Remote<SessionsApi>;
}

export async function* messageRun(message: SentMessage, route: MessageRoute): AsyncGenerator<AgentEvent> {
  // Here, where the page made the mistake: across the boundary it would be a DataCloneError.
  checkMessageText(message.text);
  const { options } = message;
  const command: RunCommand = {
    kind: 'message',
    ...runControl(options),
    text: message.text,
    messageId: message.id,
    toolChoice: options.toolChoice,
  };
  let stored = false;
  try {
    for await (const event of route.streams.stream(command, options.signal)) {
      if (event.id === message.id && !event.partial) stored = true;
      yield event;
    }
  } catch (error) {
    if (error instanceof AgentError && error.code === 'worker-crashed')
      throw await crashError(message, stored, error, route);
    throw error;
  }
}

/** What the crash error says about the message, and the message sent again where resend-after-crash.ts says so. */
async function crashError(
  message: SentMessage,
  seen: boolean,
  error: AgentError,
  route: MessageRoute,
): Promise<AgentError> {
  const verdict = await afterCrash(
    { id: message.id, seenStored: seen, resent: message.resent === true },
    {
      restarted: () => route.supervisor.restarted(),
      hasEvent: (id) => route.sessions.hasEvent(id),
    },
  );
  if (verdict.resend)
    void collectRun(
      messageRun({ ...message, resent: true, options: { ...message.options, signal: undefined } }, route),
    ).catch(() => undefined);
  return new AgentError(error.code, `${error.message}${verdict.said}`, {
    cause: error,
    details: { ...(error.details as object), messageStored: verdict.messageStored, messageId: message.id },
  });
}
