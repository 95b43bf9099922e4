/**
 * State scopes after ADK: `app:` keys are shared by every session of the app,
 * `user:` keys by every session of one user, `temp:` keys live only for the
 * current invocation and are never stored; any other key is the session's.
 * A delta sets keys (a null value is stored as null, as ADK does).
 */
const APP_PREFIX = 'app:';
const USER_PREFIX = 'user:';
const TEMP_PREFIX = 'temp:';

export interface ScopedDelta {
  app: Record<string, unknown>;
  user: Record<string, unknown>;
  session: Record<string, unknown>;
  temp: Record<string, unknown>;
}

export function splitDelta(delta: Record<string, unknown> | undefined): ScopedDelta {
  const split: ScopedDelta = { app: {}, user: {}, session: {}, temp: {} };
  for (const [key, value] of Object.entries(delta ?? {})) {
    if (key.startsWith(APP_PREFIX)) split.app[key] = value;
    else if (key.startsWith(USER_PREFIX)) split.user[key] = value;
    else if (key.startsWith(TEMP_PREFIX)) split.temp[key] = value;
    else split.session[key] = value;
  }
  return split;
}

/** The delta as it is stored: without temp: keys; undefined when nothing is left. */
export function storableDelta(delta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!delta) return undefined;
  const kept = Object.fromEntries(Object.entries(delta).filter(([key]) => !key.startsWith(TEMP_PREFIX)));
  return Object.keys(kept).length ? kept : undefined;
}

/** The view a session shows: app, then user, then session keys. */
export function mergedState(
  app: Record<string, unknown>,
  user: Record<string, unknown>,
  session: Record<string, unknown>,
): Record<string, unknown> {
  return { ...app, ...user, ...session };
}

/** The session-scoped state a list of deltas folds to (what the stored state must equal). */
export function foldSessionState(deltas: Iterable<Record<string, unknown> | undefined>): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const delta of deltas) Object.assign(state, splitDelta(delta).session);
  return state;
}
