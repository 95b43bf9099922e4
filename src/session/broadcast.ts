/**
 * New events reach every other agent, worker and tab on the same database
 * through one BroadcastChannel per database; subscribers filter by session.
 */
import type { AgentEvent } from './event';

const channelName = (dbName: string) => `inpage-agent/events/${dbName}`;
const channels = new Map<string, BroadcastChannel>();

export function publishEvent(dbName: string, event: AgentEvent): void {
  if (typeof BroadcastChannel === 'undefined' || event.partial) return;
  let channel = channels.get(dbName);
  if (!channel) {
    channel = new BroadcastChannel(channelName(dbName));
    channels.set(dbName, channel);
  }
  channel.postMessage(event);
}

export function subscribeSession(dbName: string, sessionId: string, onEvent: (event: AgentEvent) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(channelName(dbName));
  channel.onmessage = (message: MessageEvent<AgentEvent>) => {
    if (message.data?.sessionId === sessionId) onEvent(message.data);
  };
  return () => channel.close();
}
