/**
 * A ReadableStream the worker fills with an invocation's events and the page
 * reads after the stream is transferred to it. Pushing after close is a no-op,
 * so a late event can never throw inside the loop.
 */
import type { AgentEvent } from '../session/event';

export interface EventChannel {
  readable: ReadableStream<AgentEvent>;
  push(event: AgentEvent): void;
  close(): void;
}

export function eventChannel(): EventChannel {
  let controller!: ReadableStreamDefaultController<AgentEvent>;
  let open = true;
  const readable = new ReadableStream<AgentEvent>({
    start(c) {
      controller = c;
    },
    cancel() {
      open = false;
    },
  });
  return {
    readable,
    push(event) {
      if (open) controller.enqueue(event);
    },
    close() {
      if (!open) return;
      open = false;
      controller.close();
    },
  };
}
