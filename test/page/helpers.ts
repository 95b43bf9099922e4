/** Shared by the browser tests: unique databases, a DOM to-do list, event lookups. */
import { afterEach } from 'vitest';
import { createAgent, defineTool, z, type Agent, type AgentEvent } from '../../src/index';
import type { EventFields } from '../../src/session/event';
import { openIdbSessionStore } from '../../src/session/idb-store';
import { openCallsOf } from '../../src/session/open-calls';

export function uniqueDb(label: string): string {
  return `test-${label}-${crypto.randomUUID()}`;
}

export function todoList() {
  const list = document.createElement('ul');
  document.body.append(list);
  const calls: string[] = [];
  const addTodo = defineTool({
    name: 'add_todo',
    description: 'Add an item to the to-do list on this page.',
    parameters: z.object({ text: z.string().min(1), due: z.string().optional() }),
    execute: async ({ text }) => {
      calls.push(text);
      const item = document.createElement('li');
      item.textContent = text;
      list.append(item);
      return { id: `todo-${list.children.length}` };
    },
  });
  return { list, addTodo, calls, items: () => [...list.children].map((li) => li.textContent) };
}

export function responses(events: AgentEvent[]) {
  return events.flatMap((event) =>
    event.content?.role === 'tool' && !event.late
      ? event.content.parts.flatMap((part) => ('functionResponse' in part ? [part.functionResponse] : []))
      : [],
  );
}

export function calls(events: AgentEvent[]) {
  return events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall] : [])),
  );
}

/** createAgent for a test file: every agent it makes is closed after each test. */
export function agentsClosedAfterEach(): (options: Parameters<typeof createAgent>[0]) => Promise<Agent> {
  const agents: Agent[] = [];
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.close()));
  });
  return async (options) => {
    const agent = await createAgent(options);
    agents.push(agent);
    return agent;
  };
}

/**
 * A worker URL for createAgent({ workerUrl }), a function that kills every worker started from it, and one that
 * kills the workers those started (llama.cpp's own), resolving with how many it stopped (see killable-worker.ts).
 */
export function killableWorker(): { workerUrl: string; kill(): void; killInner(): Promise<number> } {
  const channel = `inpage-agent-test/kill/${crypto.randomUUID()}`;
  // Built in two steps: vite rewrites new URL(`…${x}`, import.meta.url) as a glob.
  const url = new URL('./killable-worker.ts', import.meta.url);
  url.searchParams.set('kill', channel);
  const workerUrl = url.href;
  const sender = new BroadcastChannel(channel);
  const killInner = () =>
    new Promise<number>((resolve) => {
      const listener = (message: MessageEvent<{ killedInner?: number }>) => {
        if (typeof message.data?.killedInner !== 'number') return;
        sender.removeEventListener('message', listener);
        resolve(message.data.killedInner);
      };
      sender.addEventListener('message', listener);
      sender.postMessage('kill-inner');
    });
  return { workerUrl, kill: () => sender.postMessage('die'), killInner };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The rejection of a promise that must reject. */
export async function rejection(promise: Promise<unknown>): Promise<import('../../src/index').AgentError> {
  try {
    await promise;
  } catch (error) {
    return error as import('../../src/index').AgentError;
  }
  throw new Error('expected a rejection, but it resolved');
}

/** The runtime's id of the call the model wrote with its own id `modelCallId` (the model's ids decide nothing). */
export function runtimeId(events: AgentEvent[], modelCallId: string): string {
  const call = calls(events).find((c) => c.modelCallId === modelCallId);
  if (!call) throw new Error(`no call the model named "${modelCallId}"`);
  return call.id;
}

/** An event as versions before event types stored it: every field but `type`. */
export type EarlierEvent = Omit<EventFields, 'type'>;

/** A session log written straight into IndexedDB, as another version (or a forger with the page's storage) would leave it. */
export async function storeLog(dbName: string, events: EarlierEvent[]): Promise<void> {
  const last = events.at(-1);
  const store = await openIdbSessionStore({ dbName });
  await store.put(
    {
      id: events[0]!.sessionId,
      appName: location.origin,
      userId: 'local',
      createdAt: events[0]!.timestamp,
      updatedAt: last!.timestamp,
      state: {},
      lastSeq: events.length,
      openCalls: openCallsOf(events as AgentEvent[]),
    },
    events as AgentEvent[],
  );
  store.close();
}
