/**
 * The AI SDK's own chat (AbstractChat, what useChat runs) with a plain state
 * in place of React's, and a way to wait for the state a test asserts.
 */
import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from 'ai';

class WatchedState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  private listeners = new Set<() => void>();

  constructor(public messages: UIMessage[]) {}

  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
    this.changed();
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
    this.changed();
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((m, i) => (i === index ? message : m));
    this.changed();
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);

  changed(): void {
    for (const listener of this.listeners) listener();
  }

  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class TestChat extends AbstractChat<UIMessage> {
  private readonly watched: WatchedState;
  /** Every status the chat went through, in order. */
  readonly statuses: ChatStatus[] = [];

  constructor(init: ChatInit<UIMessage>) {
    const state = new WatchedState(init.messages ?? []);
    super({ ...init, state });
    this.watched = state;
    // The status is a plain field of the state: watch its writes.
    let status = state.status;
    Object.defineProperty(state, 'status', {
      get: () => status,
      set: (value: ChatStatus) => {
        status = value;
        this.statuses.push(value);
        state.changed();
      },
    });
  }

  /** Calls `listener` at every change of messages or status; returns what stops it. */
  observe(listener: (chat: TestChat) => void): () => void {
    return this.watched.watch(() => listener(this));
  }

  /** Resolves once `ready(chat)` holds (checked now and at every change of messages or status). */
  until(ready: (chat: TestChat) => boolean): Promise<void> {
    return new Promise((resolve) => {
      if (ready(this)) return resolve();
      const stop = this.watched.watch(() => {
        if (!ready(this)) return;
        stop();
        resolve();
      });
    });
  }
}

/** The tool parts of a message, with the fields tests look at. */
export function toolParts(message: UIMessage | undefined) {
  return (message?.parts ?? []).filter((part) => part.type.startsWith('tool-')) as unknown as {
    type: string;
    toolCallId: string;
    state: string;
    input?: unknown;
    output?: unknown;
    errorText?: string;
    approval?: { id: string; approved?: boolean };
  }[];
}

export function textOf(message: UIMessage | undefined): string {
  return (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}
