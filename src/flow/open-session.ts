/**
 * What an agent does with its session when it opens it, before any run: the
 * engine may read the recent conversation (to warm its cache), a storage
 * that fell back to memory says so in the session itself, where every UI
 * looks, and calls a crash left open are answered if no run holds the
 * session.
 */
import type { AgentEvent } from '../session/event';
import { STORAGE_RUN } from '../session/run-ids';
import type { Session } from '../session/store';
import { record, standalone } from './record';
import { repairIfIdle } from './repair-open-calls';
import type { AgentContext, RecordTarget } from './types';

export async function openSession(
  ctx: AgentContext,
  opened: { session: Session; events: readonly AgentEvent[] },
  options: Pick<RecordTarget, 'emit'> & { storageNotice?: string },
): Promise<void> {
  const { session } = opened;
  const base = { sessionId: session.id, store: ctx.store, emit: options.emit };
  ctx.engine.resume?.(opened.events);
  if (options.storageNotice) {
    await record(standalone(base, STORAGE_RUN), {
      author: 'system',
      error: { code: 'storage-unavailable', message: options.storageNotice },
    });
  }
  await repairIfIdle(base, session);
}
