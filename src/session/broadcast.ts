/**
 * New events reach every other agent, worker and tab on the same database
 * through one BroadcastChannel per database; subscribers filter by session.
 * Each message is cloned and sent to every context of the origin, so a
 * writer sends at most one per frame: the first event at once, and the
 * events stored during the next 16 ms together at its end. A run of many
 * quick steps costs a message per frame, not one per event, and a view in
 * another tab is at most a frame behind.
 */
import type { AgentEvent } from './event';

const FRAME_MS = 16;

const channelName = (dbName: string) => `inpage-agent/events/${dbName}`;

interface Publisher {
  channel: BroadcastChannel;
  /** Events waiting for the end of the frame; undefined when no frame is open. */
  batch?: AgentEvent[];
}

const publishers = new Map<string, Publisher>();

export function publishEvent(dbName: string, event: AgentEvent): void {
  if (typeof BroadcastChannel === 'undefined' || event.partial) return;
  let publisher = publishers.get(dbName);
  if (!publisher) publishers.set(dbName, (publisher = { channel: new BroadcastChannel(channelName(dbName)) }));
  if (publisher.batch) {
    publisher.batch.push(event);
    return;
  }
  publisher.channel.postMessage([event]);
  const open = (publisher.batch = []);
  const sender = publisher;
  setTimeout(() => {
    sender.batch = undefined;
    if (open.length) sender.channel.postMessage(open);
  }, FRAME_MS);
}

export function subscribeSession(dbName: string, sessionId: string, onEvent: (event: AgentEvent) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(channelName(dbName));
  channel.onmessage = (message: MessageEvent<AgentEvent[] | AgentEvent>) => {
    // A frame's events, or one event (as a writer of an earlier version sends them).
    for (const event of Array.isArray(message.data) ? message.data : [message.data])
      if (event?.sessionId === sessionId) onEvent(event);
  };
  return () => channel.close();
}
