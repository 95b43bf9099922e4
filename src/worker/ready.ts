/**
 * What a started agent holds in its worker, once init() has opened the store, the engine, the toolkit
 * and the session: every service reads it through `current`, which fails with 'closed' before init()
 * and after close(), so a call that comes too early or too late is a clear error, never a TypeError.
 * What reads the open session waits for `opening` first (`openedReady`): the page's messages arrive in
 * the order it sent them, and a run sent after an open belongs to the session that open opens.
 */
import { AgentError } from '../errors';
import type { ModelEngine } from '../model/engine';
import type { SessionStore } from '../session/store';
import type { AgentContext } from '../flow/types';
import type { HostConfig, HostInfo, PageApi } from '../contract/protocol';
import type { ToolkitBinding } from './toolkit-binding';

export interface Ready {
  config: HostConfig;
  page: PageApi;
  store: SessionStore;
  /** The open session's: replaced by SessionsApi.open(). */
  context: AgentContext;
  /** The last SessionsApi.open() that arrived, settled or not (it never rejects). */
  opening: Promise<unknown>;
  releaseEngine(): Promise<void>;
  /** Runs work with the engine itself in its next turn, taken at once (engine-pool.ts). */
  inTurn<T>(work: (engine: ModelEngine) => Promise<T>, signal?: AbortSignal): Promise<T>;
  info: HostInfo;
  toolkit: ToolkitBinding;
}

/** The started agent, or the 'closed' error that says what to do. */
export type Current = () => Ready;

export function needReady(ready: Ready | undefined): Ready {
  if (!ready)
    throw new AgentError('closed', 'This agent is not started or was closed; create a new one with createAgent().');
  return ready;
}

/** The started agent once every session open that arrived before this call has finished. */
export async function openedReady(current: Current): Promise<Ready> {
  await current().opening;
  return current();
}
