/**
 * The agent's runs: one command starts each, whatever started it (a message, a resumption, a decision,
 * a result), and its kind picks how the flow starts it (flow/*-start.ts); then it runs under the
 * session's lock, streaming its events to the page. Warmups are stopped by the same abort(), so the
 * page has one way to stop what it started.
 */
import * as Comlink from 'comlink';
import type { AgentEvent } from '../../session/event';
import type { Session } from '../../session/store';
import { publishEvent } from '../../session/broadcast';
import { checkMessageText } from '../../contract/message-text';
import { continuationStart } from '../../flow/continuation-start';
import { decisionStart } from '../../flow/decision-start';
import { messageStart } from '../../flow/message-start';
import { resolutionStart } from '../../flow/resolution-start';
import { startRun } from '../../flow/start-run';
import type { RunStart } from '../../flow/types';
import type { EventPort, RunCommand, RunsApi } from '../../contract/protocol';
import { eventChannel } from '../event-channel';
import { openedReady, type Current } from '../ready';

type Prepare = (session: Session, history: readonly AgentEvent[]) => RunStart;

export class RunsService implements RunsApi {
  private readonly runs = new Map<string, AbortController>();
  /** Warmups under way, by the page's id (ModelService.warmup): abort() and abortAll() stop them as they stop runs. */
  private readonly warmups = new Map<string, AbortController>();

  constructor(private readonly current: Current) {}

  /**
   * Not async: a message that is not text fails before anything starts, as the page's own check does, and
   * an abort() that arrives while the run waits for an open session (below) finds it.
   */
  start(command: RunCommand): Promise<EventPort> {
    if (command.kind === 'message') checkMessageText(command.text);
    const controller = new AbortController();
    this.runs.set(command.runId, controller);
    // A run sent after SessionsApi.open() belongs to the session it opens.
    return openedReady(this.current)
      .then(() => this.stream(command, controller))
      .catch((error: unknown) => {
        this.runs.delete(command.runId);
        throw error;
      });
  }

  abort(runId: string): void {
    this.runs.get(runId)?.abort();
    this.warmups.get(runId)?.abort();
  }

  /** Whether a run is under way in this agent. */
  get busy(): boolean {
    return this.runs.size > 0;
  }

  /** A warmup's controller, so that abort(runId) reaches it; the returned function forgets it. */
  trackWarmup(runId: string, controller: AbortController): () => void {
    this.warmups.set(runId, controller);
    return () => this.warmups.delete(runId);
  }

  /** close(): every run and warmup stops. */
  abortAll(): void {
    for (const controller of [...this.runs.values(), ...this.warmups.values()]) controller.abort();
  }

  private prepare(command: RunCommand): Prepare {
    switch (command.kind) {
      case 'message':
        return (_session, history) => messageStart(history, command.text, command.messageId);
      case 'resume':
        return (_session, history) => continuationStart(history);
      case 'decision': {
        const { sessionId } = this.current().context;
        return (_session, history) => decisionStart(history, sessionId, command);
      }
      case 'resolution':
        return (session, history) => resolutionStart(session, history, command.callId, command.result);
    }
  }

  /** Runs one invocation under the session's lock, streaming its events to the page. */
  private async stream(command: RunCommand, controller: AbortController): Promise<EventPort> {
    const { context, config } = this.current();
    const channel = eventChannel();
    const { accepted, done } = startRun(context, this.prepare(command), {
      ifBusy: command.ifBusy,
      signal: controller.signal,
      toolChoice: command.kind === 'message' ? command.toolChoice : undefined,
      emit: (event) => {
        channel.push(event);
        if (!event.partial) publishEvent(config.dbName, event);
      },
    });
    void done
      .catch(() => undefined)
      .finally(() => {
        this.runs.delete(command.runId);
        channel.close();
      });
    await accepted;
    return Comlink.transfer(channel.port, [channel.port]);
  }
}
