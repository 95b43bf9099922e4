/**
 * A real invocation for one turn of calls, with the page played by a
 * recorder: the memory store keeps the events, and every hop the loop makes
 * to the page (prepareCalls, callbacks, running a tool) is logged in order.
 */
import type { PreparedCall } from '../../../src/contract/protocol';
import { DEFAULT_AGENT_NAME } from '../../../src/flow/agents';
import { newTurn } from '../../../src/flow/handle-function-calls';
import { newRunState } from '../../../src/flow/run-state';
import type { CallInfo, Decision, FlowHooks, Invocation, Refused, Turn } from '../../../src/flow/types';
import { ScriptedEngine } from '../../../src/model/engines/scripted/scripted-engine';
import { genericJson } from '../../../src/model/formats/generic-json';
import type { AgentEvent, FunctionCall } from '../../../src/session/event';
import { MemorySessionStore } from '../../../src/session/memory-store';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import type { ToolOutcome } from '../../../src/tools/invoke-tool';

export function declaration(name: string, extra: Partial<ToolDeclaration> = {}): ToolDeclaration {
  return {
    name,
    description: `The ${name} tool.`,
    parameters: {
      type: 'object',
      properties: { scope: { type: 'string', enum: ['one', 'all'] } },
      required: ['scope'],
      additionalProperties: false,
    },
    annotations: {},
    needsApproval: false,
    returnDirect: false,
    longRunning: false,
    timeoutMs: 30_000,
    source: 'page',
    ...extra,
  };
}

export type Hop =
  | { hop: 'prepareCalls'; calls: CallInfo[] }
  | { hop: 'beforeTool' | 'afterTool'; call: CallInfo & { result?: unknown; error?: string } }
  | { hop: 'run'; callId: string; args: unknown; approvedArgs?: unknown };

export interface PageScript {
  /** What the page answers for each call it prepares; default: parsed as given, no approval needed. */
  prepare?: (call: CallInfo) => PreparedCall;
  beforeTool?: (call: CallInfo) => unknown;
  afterTool?: (call: CallInfo & { result: unknown; error?: string }) => unknown;
  run?: (callId: string, args: unknown) => ToolOutcome | Promise<ToolOutcome>;
}

export async function invocation(tools: ToolDeclaration[], page: PageScript = {}) {
  const store = new MemorySessionStore();
  const session = await store.create({ appName: 'test', userId: 'u' });
  const hops: Hop[] = [];
  const events: AgentEvent[] = [];
  const hooks: FlowHooks = {
    has: { beforeTool: Boolean(page.beforeTool), afterTool: Boolean(page.afterTool) },
    beforeModel: async () => undefined,
    afterModel: async () => undefined,
    beforeTool: async (call) => {
      hops.push({ hop: 'beforeTool', call });
      return page.beforeTool?.(call);
    },
    afterTool: async (call) => {
      hops.push({ hop: 'afterTool', call });
      return page.afterTool?.(call);
    },
    prepareCalls: async (_invocationId, calls) => {
      hops.push({ hop: 'prepareCalls', calls });
      return calls.map((call) => page.prepare?.(call) ?? { ok: true, args: call.args, needsApproval: false });
    },
  };
  const inv: Invocation = {
    sessionId: session.id,
    appName: 'test',
    userId: 'u',
    store,
    engine: new ScriptedEngine([], 8192, genericJson),
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    agents: new Map([[DEFAULT_AGENT_NAME, { name: DEFAULT_AGENT_NAME, instructions: '' }]]),
    rootAgent: DEFAULT_AGENT_NAME,
    runner: {
      run: async (request) => {
        hops.push({
          hop: 'run',
          callId: request.callId,
          args: request.args,
          ...(request.approvedArgs !== undefined && { approvedArgs: request.approvedArgs }),
        });
        return (await page.run?.(request.callId, request.args)) ?? { ok: true, result: { content: 'done' }, ms: 1 };
      },
    },
    hooks,
    limits: { maxSteps: 10, maxToolCallsPerStep: 8, maxRepeatedCalls: 1 },
    invocationId: 'inv-1',
    history: [],
    state: {},
    signal: new AbortController().signal,
    emit: (event) => {
      if (!event.partial) events.push(event);
    },
    run: newRunState(),
  };
  return { inv, hops, events };
}

let counter = 0;
export function call(name: string, args: unknown): FunctionCall {
  return { id: `call-${++counter}`, name, args };
}

export function turn(
  inv: Invocation,
  calls: FunctionCall[],
  known: { refused?: ReadonlyMap<string, Refused>; decided?: ReadonlyMap<string, Decision> } = {},
): Turn {
  return newTurn(inv, DEFAULT_AGENT_NAME, calls, known);
}
