/**
 * The port a run's events travel on: the worker posts each event as one
 * message and `null` after the last (the contract's EventPort); the page
 * reads them in order (page/worker-connection.ts). A port and not a
 * transferred ReadableStream: a stream sends a message back for every chunk
 * read (its backpressure), so each event would wake the worker twice.
 * Posting after close is a no-op, so a late event can never throw inside
 * the loop.
 */
import type { AgentEvent } from '../session/event';

export interface EventChannel {
  /** The page's end, transferred with the reply that starts the run. */
  port: MessagePort;
  push(event: AgentEvent): void;
  close(): void;
}

export function eventChannel(): EventChannel {
  const { port1: ours, port2: theirs } = new MessageChannel();
  let open = true;
  return {
    port: theirs,
    push(event) {
      if (open) ours.postMessage(event);
    },
    close() {
      if (!open) return;
      open = false;
      ours.postMessage(null);
      ours.close();
    },
  };
}
