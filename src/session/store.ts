/**
 * What the loop and the agent need from a place that keeps sessions.
 * Two implementations: memory-store.ts and idb-store.ts.
 */
import type { AgentEvent, NewEvent } from './event';
import type { OpenCalls } from './open-calls';

export interface Session {
  id: string;
  appName: string;
  userId: string;
  title?: string;
  createdAt: number;
  updatedAt: number;
  /** The merged view: session keys plus `user:` and `app:` keys. Never `temp:`. */
  state: Record<string, unknown>;
  lastSeq: number;
  /**
   * Calls recorded without an answer yet (open-calls.ts), kept with every
   * append. Absent on sessions stored before this was kept: their log tells.
   */
  openCalls?: OpenCalls;
}

export interface SessionSummary {
  id: string;
  title?: string;
  createdAt: number;
  updatedAt: number;
  eventCount: number;
}

export interface SessionInit {
  id?: string;
  appName: string;
  userId: string;
  title?: string;
}

export interface AppendOptions {
  /** IndexedDB durability for this write; 'default' unless a caller knows better. */
  durability?: 'default' | 'relaxed' | 'strict';
}

export interface SessionStore {
  readonly kind: 'indexeddb' | 'memory';
  create(init: SessionInit): Promise<Session>;
  get(id: string): Promise<Session | undefined>;
  /** Events in `seq` order, optionally only those after a given seq. */
  events(id: string, options?: { afterSeq?: number }): Promise<AgentEvent[]>;
  /**
   * The session and its latest `count` events, in one read: what a run (or
   * an agent opening the session) needs. Undefined when there is no such
   * session.
   */
  recent(id: string, count: number): Promise<{ session: Session; events: AgentEvent[] } | undefined>;
  /**
   * Numbers the event, stores it and applies its `actions.stateDelta` in one
   * transaction. `temp:` keys are dropped from what is stored. Partial events
   * are refused (they are never stored).
   */
  append(sessionId: string, event: NewEvent, options?: AppendOptions): Promise<AgentEvent>;
  /** Appends events in order, each as append does, in one transaction: all of them are stored, or none. */
  appendAll(sessionId: string, events: readonly NewEvent[], options?: AppendOptions): Promise<AgentEvent[]>;
  list(filter?: { appName?: string; userId?: string }): Promise<SessionSummary[]>;
  delete(id: string): Promise<void>;
  /** Writes a whole session and its events at once (import); nothing is written if anything fails. */
  put(session: Session, events: AgentEvent[]): Promise<void>;
  close(): void;
}
