/**
 * The invocation ids of events recorded outside any run (flow/record.ts
 * `standalone`). A run's own events carry its invocation's id (newId('inv'));
 * these name where else an event came from, so that agent.resume
 * (flow/continuation-start.ts) never takes one for a run that was cut off.
 * Every writer and reader spells them from here.
 */

/** A storage notice when a session opens, and what a run records before it starts (a lost session, results a prompt cannot replay). */
export const STORAGE_RUN = 'storage';

/**
 * The idle repair of calls a crash left open (flow/repair-open-calls.ts).
 * Its answers carry the invocation of the calls they answer, so this is the
 * target's id for anything recorded without one.
 */
export const REPAIR_RUN = 'repair';

export function isOutsideRun(invocationId: string): boolean {
  return invocationId === STORAGE_RUN || invocationId === REPAIR_RUN;
}
