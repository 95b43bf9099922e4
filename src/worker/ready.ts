/**
 * What a started agent holds in its worker, once init() has opened the store, the engine, the toolkit
 * and the session: every service reads it through `current`, which fails with 'closed' before init()
 * and after close(), so a call that comes too early or too late is a clear error, never a TypeError.
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
