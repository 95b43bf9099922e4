/** Shared by the worker services' browser tests: an AgentHost started in the test page on scripted turns, and its ports read. */
import { afterEach } from 'vitest';
import { limitsOf } from '../../../src/contract/limit-defaults';
import type { EventPort, HostConfig, PageApi, ToolCallRequest } from '../../../src/contract/protocol';
import type { ScriptedTurn } from '../../../src/model/model-options';
import type { AgentEvent } from '../../../src/session/event';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { AgentHost } from '../../../src/worker/agent-host';

export const noteTool: ToolDeclaration = {
  name: 'note',
  description: 'Keep a note.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  annotations: {},
  needsApproval: false,
  returnDirect: false,
  longRunning: false,
  timeoutMs: 30_000,
  source: 'page',
};

const hosts: AgentHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** A started host (closed after the test), the page's side it talks to, and what that side was asked. */
export async function startedHost(turns: ScriptedTurn[], config: Partial<HostConfig> = {}) {
  const ran: ToolCallRequest[] = [];
  const statuses: string[] = [];
  const page: PageApi = {
    callTool: async (request) => {
      ran.push(request);
      return { ok: true, result: { content: `noted ${JSON.stringify(request.args)}` }, ms: 1 };
    },
    abortTool: () => undefined,
    prepareCalls: async (_invocationId, calls) =>
      calls.map((call) => ({ ok: true, args: call.args, needsApproval: call.name === 'risky' })),
    callback: async () => undefined,
    progress: () => undefined,
    status: (status) => void statuses.push(status),
  };
  const host = new AgentHost();
  hosts.push(host);
  const info = await host.init(
    {
      appName: 'services-test',
      userId: 'local',
      dbName: `test-services-${crypto.randomUUID()}`,
      storage: 'memory',
      instructions: 'You keep notes.',
      model: { engine: 'scripted', turns },
      tools: [noteTool],
      callbacks: {},
      agents: [],
      ...limitsOf({}),
      ...config,
    },
    page,
  );
  return { host, info, ran, statuses };
}

/** Every event a run's port carries, until the run says it is over (null). */
export function readPort(port: EventPort): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  return new Promise((resolve) => {
    port.onmessage = (message: MessageEvent<AgentEvent | null>) => {
      if (message.data === null) {
        port.close();
        resolve(events);
      } else events.push(message.data);
    };
  });
}

/** The events a run stored (partial ones are not). */
export const stored = (events: AgentEvent[]) => events.filter((event) => !event.partial);
