/**
 * The agent's sessions in the worker's store: listed, read, deleted, exported and imported as JSONL,
 * and the one the agent has open, which open() replaces while the engine stays loaded.
 */
import { AgentError } from '../../errors';
import type { AgentContext } from '../../flow/types';
import { openSession } from '../../flow/open-session';
import { publishEvent } from '../../session/broadcast';
import { exportSession, importSession } from '../../session/jsonl';
import { pendingApprovals } from '../../session/open-approval';
import { readRecent, recentEvents } from '../../session/recent-events';
import { sessionStats } from '../../session/stats';
import type { HostInfo, ImportProgress, SessionView, SessionsApi } from '../../contract/protocol';
import { openedReady, type Current, type Ready } from '../ready';

export class SessionsService implements SessionsApi {
  constructor(
    private readonly current: Current,
    /** The loop's context for a session of this agent (AgentHost composes it). */
    private readonly contextFor: (ready: Ready, sessionId: string) => AgentContext,
  ) {}

  list() {
    const { store, config } = this.current();
    return store.list({ appName: config.appName, userId: config.userId });
  }

  async get(id: string): Promise<SessionView | undefined> {
    const { store } = this.current();
    const session = await store.get(id);
    if (!session) return undefined;
    return { id, state: session.state, events: await store.events(id), session };
  }

  async delete(id: string): Promise<void> {
    await this.current().store.delete(id);
  }

  export(id: string): Promise<string> {
    return exportSession(this.current().store, id);
  }

  import(jsonl: string, onProgress?: (progress: ImportProgress) => void): Promise<string> {
    return importSession(this.current().store, jsonl, { onProgress });
  }

  /**
   * What arrives after this call acts on the session it opens: runs, warmups and questions about the open
   * session wait for it (openedReady), and so does the next open.
   */
  open(sessionId?: string): Promise<HostInfo> {
    const ready = this.current();
    const opening = ready.opening.then(() => this.switchTo(ready, sessionId));
    ready.opening = opening.catch(() => undefined);
    return opening;
  }

  private async switchTo(ready: Ready, sessionId: string | undefined): Promise<HostInfo> {
    const { store, config } = ready;
    const opened = (sessionId ? await readRecent(store, sessionId) : undefined) ?? {
      session: await store.create({ id: sessionId, appName: config.appName, userId: config.userId }),
      events: [],
    };
    const context = this.contextFor(ready, opened.session.id);
    await openSession(context, opened, { emit: (event) => publishEvent(config.dbName, event) });
    if (this.isClosed(ready)) throw new AgentError('closed', 'This agent was closed while it opened the session.');
    ready.context = context;
    ready.info = { ...ready.info, sessionId: opened.session.id };
    return ready.info;
  }

  async hasEvent(id: string): Promise<boolean> {
    const { store, context } = await openedReady(this.current);
    return (await recentEvents(store, context.sessionId)).some((event) => event.id === id);
  }

  async pendingApprovals() {
    const { store, context } = await openedReady(this.current);
    return pendingApprovals(await recentEvents(store, context.sessionId));
  }

  async stats() {
    const { store, context } = await openedReady(this.current);
    return sessionStats(context.sessionId, await store.events(context.sessionId));
  }

  /** Whether `ready` is no longer the agent's (it was closed, or started again, meanwhile). */
  private isClosed(ready: Ready): boolean {
    try {
      return this.current() !== ready;
    } catch {
      return true;
    }
  }
}
