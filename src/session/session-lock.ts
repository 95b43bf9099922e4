/**
 * One invocation of a session at a time, across agents, workers and tabs of
 * the origin (Web Locks). A second run waits, or fails at once with
 * 'session-busy' when the caller asked for ifBusy: 'fail'.
 */
import { AgentError } from '../errors';

export function sessionLockName(sessionId: string): string {
  return `inpage-agent/session/${sessionId}`;
}

export async function withSessionLock<T>(
  sessionId: string,
  options: { ifBusy: 'wait' | 'fail'; signal?: AbortSignal },
  run: () => Promise<T>,
): Promise<T> {
  const name = sessionLockName(sessionId);
  if (options.ifBusy === 'fail') {
    return navigator.locks.request(name, { ifAvailable: true }, async (lock) => {
      if (!lock) {
        throw new AgentError(
          'session-busy',
          `Session ${sessionId} is running in another tab or agent. Wait for it, or call run(text, { ifBusy: 'wait' }) to queue behind it.`,
        );
      }
      return run();
    });
  }
  try {
    return await navigator.locks.request(name, options.signal ? { signal: options.signal } : {}, run);
  } catch (error) {
    if ((error as { name?: string }).name === 'AbortError')
      throw new AgentError('aborted', 'The run was aborted while it waited for another run of this session to finish.');
    throw error;
  }
}

/** Runs `run` under the session's lock if no one holds it now; otherwise does nothing. */
export async function withSessionLockIfFree<T>(sessionId: string, run: () => Promise<T>): Promise<T | undefined> {
  return navigator.locks.request(sessionLockName(sessionId), { ifAvailable: true }, (lock) =>
    lock ? run() : undefined,
  );
}
