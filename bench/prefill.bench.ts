/**
 * Prefilled tokens over an 8-step tool run with 20 tools and a toolkit graph
 * whose recommendation moves between steps: the loop (src/flow, the real
 * startRun/runInvocation with a memory store) and our web-llm engine over
 * web-llm's real MLCEngine with a weightless pipeline (test/model/prefill),
 * which applies web-llm's own KV-cache rule and counts with Qwen3's real
 * tokenizer. Three rows per mode:
 *
 * - ours: today's request processors;
 * - minimum: each token prefilled once (the first step's whole prompt, then
 *   only each step's new round), from the same run;
 * - before #13: a copy of the request processors as they were (the step's
 *   recommended tools and its "Possible next steps" line in the system
 *   prompt, one oldest turn dropped per step), run the same way.
 *
 * Native mode is Hermes-3 (web-llm writes the tool list into its own system
 * prompt); each step calls one tool, so the merge of several results into one
 * tool message (also part of #13) does not show here.
 *
 * The peer: the AI SDK's generateText with @browser-ai/web-llm, the AI SDK
 * provider for web-llm, on the same weightless MLCEngine (its `new MLCEngine`
 * is made weightless by a patched reload()), the same 20 tools (it has no
 * toolkit: all 20 are described, as ours describes them) and the same answers
 * written in its ```tool_call format.
 *
 * Beside it, the AI SDK's streamText driving our model (inpage-agent/ai-sdk's
 * inpageModel) over the same run: our web-llm engine on the same weightless
 * MLCEngine in a real worker (an engine module, test/model/fixtures), the
 * AI SDK running its own 20 tools and carrying our raw output from step to
 * step.
 */
import { webLLM } from '@browser-ai/web-llm';
import { MLCEngine } from '@mlc-ai/web-llm';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { inpageModel } from '../src/ai-sdk/index';
import { z as zod } from 'zod';
import { AgentError } from '../src/errors';
import type { ChatMessage } from '../src/model/engine';
import { WebLLMEngine } from '../src/model/engines/webllm/webllm-engine';
import { agentTools, DEFAULT_AGENT_NAME } from '../src/flow/agents';
import { defaultRequestProcessors } from '../src/flow/request-processors/build-request';
import { historyProcessor } from '../src/flow/request-processors/history';
import { instructionsProcessor } from '../src/flow/request-processors/instructions';
import { toolChoiceProcessor } from '../src/flow/request-processors/tool-choice';
import { messageStart } from '../src/flow/message-start';
import { startRun } from '../src/flow/start-run';
import type { AgentContext, RequestProcessor } from '../src/flow/types';
import { MemorySessionStore } from '../src/session/memory-store';
import { ToolkitGraph } from '../src/toolkit/graph';
import { recommendIds } from '../src/toolkit/recommend';
import { createToolSelector, type StepSelector } from '../src/toolkit/selector';
import type { ToolDeclaration } from '../src/tools/declaration';
import {
  hermes3ChatConfig,
  HERMES3_MODEL_ID,
  qwen3ChatConfig,
  QWEN3_MODEL_ID,
} from '../test/model/prefill/chat-configs';
import type { PrefillEngineOptions } from '../test/model/fixtures/engines/prefill-webllm';
import { makeWeightless, prefillEngine } from '../test/model/prefill/prefill-engine';
import { qwen3Tokenizer } from '../test/model/prefill/qwen3-tokenizer';
import type { Prefill, WeightlessPipeline } from '../test/model/prefill/weightless-pipeline';
import type { BenchRow, BenchSuite } from './harness';

const ACTIONS: Record<string, string[]> = {
  plan: ['outline', 'list_steps', 'estimate', 'schedule', 'assign'],
  gather: ['search_docs', 'read_page', 'fetch_prices', 'lookup_user', 'check_stock'],
  act: ['add_todo', 'send_email', 'book_room', 'order_item', 'set_reminder'],
  report: ['summarize', 'make_chart', 'export_csv', 'share_link', 'notify'],
};
const CALLS: [string, object][] = [
  ['outline', { query: 'the trip' }],
  ['search_docs', { query: 'hotels' }],
  ['read_page', { query: 'hotel list', limit: 3 }],
  ['add_todo', { query: 'book the hotel' }],
  ['set_reminder', { query: 'check in' }],
  ['summarize', { query: 'the plan' }],
  ['export_csv', { query: 'the plan' }],
];

function declaration(name: string): ToolDeclaration {
  return {
    name,
    description: `${name.replace('_', ' ')}: one of the twenty tools of this page, with a description of ordinary length.`,
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to work on.' }, limit: { type: 'number' } },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnly: true },
    needsApproval: false,
    returnDirect: false,
    longRunning: false,
    timeoutMs: 30_000,
    source: 'page',
  };
}

function graph(): ToolkitGraph {
  const g = new ToolkitGraph();
  const names = Object.keys(ACTIONS);
  for (const [index, id] of names.entries()) {
    g.addVertex({ kind: 'action', id, name: id[0].toUpperCase() + id.slice(1), description: `the ${id} step` });
    if (index > 0) g.addEdge(names[index - 1], id, 'next', 0.9);
    for (const tool of ACTIONS[id]) {
      if (!g.has(tool)) g.addVertex({ kind: 'tool', id: tool });
      g.addEdge(id, tool, 'call', 0.9);
    }
  }
  return g;
}

// ---- The request processors before #13, copied as they were.

/** The step's recommendation in request.tools, and its next-steps line in the system prompt. */
const toolsProcessorBefore: RequestProcessor = (inv, request) => {
  const allowed = request.agent.tools ? new Set(request.agent.tools) : undefined;
  const own = [...inv.tools.values()].filter((tool) => !allowed || allowed.has(tool.name));
  let offered = own;
  if (inv.selector) {
    const selection = inv.selector.select(own.map((tool) => tool.name));
    const names = new Set(selection.offered);
    offered = own.filter((tool) => names.has(tool.name));
    const line = nextStepsLine(inv.selector as StepSelector);
    if (line) request.system.push(line);
  }
  request.tools.push(...offered, ...agentTools(request.agent, inv.agents, inv.rootAgent));
};

/** The graph behind each run's selector: the line below reads it. */
const graphs = new WeakMap<object, ToolkitGraph>();

/** The "Possible next steps" line a step's prompt had before #13 (the selector computed it then). */
function nextStepsLine(selector: StepSelector): string | undefined {
  const g = graphs.get(selector);
  if (!g || selector.current.length === 0) return undefined;
  const { actions } = recommendIds(g, selector.current, { threshold: 0.5, hops: 1 });
  const next = new Set(
    actions.flatMap((id) =>
      g
        .out(id, 'next')
        .filter((edge) => edge.score >= 0.5)
        .map((edge) => edge.to),
    ),
  );
  const described = [...next]
    .map((id) => g.vertex(id))
    .flatMap((vertex) =>
      vertex?.kind === 'action' ? [`${vertex.name}${vertex.description ? ` (${vertex.description})` : ''}`] : [],
    );
  return described.length ? `Possible next steps: ${described.join('; ')}.` : undefined;
}

/** Oldest turns dropped one unit at a time until the step fits. */
const contextWindowProcessorBefore: RequestProcessor = (inv, request) => {
  const system = request.system.join('\n\n');
  const { contextWindow } = inv.engine.info;
  const count = (text: string) => inv.engine.countTokens(text);
  const budget =
    contextWindow - count(system) - count(JSON.stringify(request.tools)) - Math.min(1024, contextWindow / 4);
  const units: ChatMessage[][] = [];
  for (const message of request.messages) {
    const head = units.at(-1)?.[0];
    if (message.role === 'tool' && head?.role === 'assistant' && head.toolCalls?.length) units.at(-1)!.push(message);
    else units.push([message]);
  }
  const cost = (unit: ChatMessage[]) => unit.reduce((sum, message) => sum + count(message.content) + 4, 0);
  let total = units.reduce((sum, unit) => sum + cost(unit), 0);
  let lastUser = -1;
  units.forEach((unit, i) => unit[0].role === 'user' && (lastUser = i));
  const dropped = new Set<number>();
  for (let i = 0; i < units.length && total > budget; i++) {
    if (i === lastUser || i === units.length - 1) continue;
    dropped.add(i);
    total -= cost(units[i]);
  }
  if (total > budget) throw new AgentError('context-overflow', 'does not fit');
  const kept = units.filter((_, i) => !dropped.has(i)).flat();
  request.trimmed = request.messages.length - kept.length;
  request.messages = kept;
};

const processorsBefore = [
  instructionsProcessor,
  historyProcessor,
  toolsProcessorBefore,
  toolChoiceProcessor,
  contextWindowProcessorBefore,
];

// ---- One run through the loop.

function selectorOf(g: ToolkitGraph): StepSelector {
  const selector = createToolSelector(g, { startActions: ['plan'], hops: 1 });
  graphs.set(selector, g);
  return selector;
}

/** A longer run in a small window: 15 pages of a guide read one by one, in 2,048 tokens. */
const LONG_CALLS: [string, object][] = Array.from({ length: 15 }, (_, i) => ['read_page', { query: `page ${i + 1}` }]);
const PAGE = `${'Hotels, trains and museums of Lyon, with opening hours and prices. '.repeat(8)}`;

async function run(
  native: boolean,
  requestProcessors: readonly RequestProcessor[],
  long = false,
): Promise<{ prefills: Prefill[]; steps: number }> {
  const modelId = native ? HERMES3_MODEL_ID : QWEN3_MODEL_ID;
  const calls = long ? LONG_CALLS : CALLS;
  const outputs = native
    ? [...calls.map(([name, args]) => JSON.stringify([{ name, arguments: args }])), '[]']
    : [
        ...calls.map(
          ([name, args]) =>
            `<think>\nI will use ${name}.\n</think>\n\n<tool_call>\n{"name": "${name}", "arguments": ${JSON.stringify(args)}}\n</tool_call>`,
        ),
        '<think>\nThat is everything.\n</think>\n\nYour trip is planned: the hotel is on your list and the plan is exported.',
      ];
  const { engine: standIn, pipeline } = prefillEngine({
    modelId,
    chatConfig: native ? hermes3ChatConfig : qwen3ChatConfig,
    tokenizer: await qwen3Tokenizer(),
    outputs,
  });
  const engine = new WebLLMEngine({
    modelId,
    ...(long && { contextWindow: 2048 }),
    createEngine: () => standIn,
    probeGpu: async () => ({ available: true, features: ['shader-f16'], shaderF16: true }),
  });
  await engine.load();
  const store = new MemorySessionStore();
  const session = await store.create({ appName: 'bench', userId: 'local' });
  const names = long ? ['read_page', 'search_docs', 'summarize'] : Object.values(ACTIONS).flat();
  const tools = new Map(names.map((name) => [name, declaration(name)]));
  const ctx: AgentContext = {
    sessionId: session.id,
    appName: 'bench',
    userId: 'local',
    store,
    engine,
    tools,
    agents: new Map([
      [DEFAULT_AGENT_NAME, { name: DEFAULT_AGENT_NAME, instructions: 'You plan trips for the person on this page.' }],
    ]),
    rootAgent: DEFAULT_AGENT_NAME,
    runner: {
      run: async (request) => ({
        ok: true,
        result: { content: long ? PAGE : { ok: true, tool: request.name } },
        ms: 0,
      }),
    },
    hooks: {
      has: {},
      beforeModel: async () => undefined,
      afterModel: async () => undefined,
      beforeTool: async () => undefined,
      afterTool: async () => undefined,
      prepareCalls: async (_invocationId, calls) =>
        calls.map((call) => ({ ok: true, args: call.args, needsApproval: false })),
    },
    selector: long ? undefined : selectorOf(graph()),
    requestProcessors,
    limits: { maxSteps: 20, maxToolCallsPerStep: 8, maxRepeatedCalls: 1 },
  };
  let steps = 0;
  const started = startRun(ctx, (_session, history) => messageStart(history, 'Plan my trip to Lyon.', 'm1'), {
    ifBusy: 'fail',
    signal: new AbortController().signal,
    emit: (event) => {
      if (!event.partial && event.content?.role === 'model') steps += 1;
    },
  });
  const reason = await started.done;
  if (reason !== 'answer') throw new Error(`the bench run ended with ${reason}`);
  return { prefills: pipeline.prefills, steps };
}

/** The AI SDK's tools for the run: the same 20, each answering as ours do. */
function aiSdkTools() {
  return Object.fromEntries(
    Object.values(ACTIONS)
      .flat()
      .map((name) => [
        name,
        tool({
          description: declaration(name).description,
          inputSchema: zod.object({
            query: zod.string().describe('What to work on.'),
            limit: zod.number().optional(),
          }),
          execute: async () => ({ ok: true, tool: name }),
        }),
      ]),
  );
}

// Through a variable, so that vite leaves the URL alone: the worker imports the engine module from it.
const here = import.meta.url;

/** The same run through the AI SDK's streamText and our model (inpageModel), in a real worker. */
async function aiSdkOverOurs(): Promise<{ prefills: Prefill[]; steps: number }> {
  const channel = `bench-prefill-${crypto.randomUUID()}`;
  const prefills: Prefill[] = [];
  const listener = new BroadcastChannel(channel);
  listener.onmessage = (message: MessageEvent<Prefill>) => prefills.push(message.data);
  const options: PrefillEngineOptions = {
    family: 'qwen3',
    channel,
    outputs: [
      ...CALLS.map(
        ([name, args]) =>
          `<think>\nI will use ${name}.\n</think>\n\n<tool_call>\n{"name": "${name}", "arguments": ${JSON.stringify(args)}}\n</tool_call>`,
      ),
      '<think>\nThat is everything.\n</think>\n\nYour trip is planned: the hotel is on your list and the plan is exported.',
    ],
  };
  const model = inpageModel({
    engine: 'module',
    url: new URL('../test/model/fixtures/engines/prefill-webllm.ts', here).href,
    options,
  });
  try {
    const result = streamText({
      model,
      system: 'You plan trips for the person on this page.',
      prompt: 'Plan my trip to Lyon.',
      tools: aiSdkTools(),
      stopWhen: stepCountIs(10),
    });
    await result.consumeStream();
    const steps = (await result.steps).length;
    // Each prefill crosses from the worker on a BroadcastChannel: the run is over, wait for the last message.
    while (prefills.length < steps) await new Promise((resolve) => setTimeout(resolve, 10));
    return { prefills, steps };
  } finally {
    listener.close();
    await model.close();
  }
}

/** The same run through the AI SDK and @browser-ai/web-llm. */
async function peer(): Promise<{ prefills: Prefill[]; steps: number }> {
  const outputs = [
    ...CALLS.map(
      ([name, args]) =>
        `<think>\nI will use ${name}.\n</think>\n\n\`\`\`tool_call\n{"name": "${name}", "arguments": ${JSON.stringify(args)}}\n\`\`\``,
    ),
    '<think>\nThat is everything.\n</think>\n\nYour trip is planned: the hotel is on your list and the plan is exported.',
  ];
  const tokenizer = await qwen3Tokenizer();
  let pipeline: WeightlessPipeline | undefined;
  const reload = MLCEngine.prototype.reload;
  MLCEngine.prototype.reload = async function (this: MLCEngine, modelId: string | string[]) {
    pipeline = makeWeightless(this, { chatConfig: qwen3ChatConfig, tokenizer, outputs });
    await this.reload(modelId);
  };
  try {
    const tools = aiSdkTools();
    const result = await generateText({
      model: webLLM(QWEN3_MODEL_ID),
      system: 'You plan trips for the person on this page.',
      prompt: 'Plan my trip to Lyon.',
      tools,
      stopWhen: stepCountIs(10),
    });
    if (!pipeline) throw new Error('the peer never loaded its engine');
    return { prefills: pipeline.prefills, steps: result.steps.length };
  } finally {
    MLCEngine.prototype.reload = reload;
  }
}

const resets = (prefills: Prefill[]) => prefills.filter((p) => p.reset).length;
const total = (prefills: Prefill[]) => prefills.reduce((sum, p) => sum + p.tokens, 0);
/** Each token once: the first step's whole prompt, then each step's new round only. */
const minimum = (prefills: Prefill[]) =>
  prefills[0].tokens + prefills.slice(1).reduce((sum, p) => sum + p.roundTokens, 0);

const suite: BenchSuite = async () => {
  const rows: BenchRow[] = [];
  for (const native of [false, true]) {
    const mode = native ? 'native (Hermes-3)' : 'prompt (Qwen3)';
    const name = `prefilled tokens, 8-step tool run, 20 tools, toolkit on, ${mode}`;
    const ours = await run(native, defaultRequestProcessors);
    const before = await run(native, processorsBefore);
    rows.push(
      {
        group: 'prefill',
        name: `${name}: ours`,
        median: total(ours.prefills),
        unit: 'tokens',
        peer: { name: 'minimum', median: minimum(ours.prefills) },
        target: '≤ 1.05× minimum',
        note: `${ours.steps} steps, ${resets(ours.prefills)} reset(s)`,
      },
      {
        group: 'prefill',
        name: `${name}: minimum (each token prefilled once)`,
        median: minimum(ours.prefills),
        unit: 'tokens',
      },
      {
        group: 'prefill',
        name: `${name}: before #13 (baseline)`,
        median: total(before.prefills),
        unit: 'tokens',
        peer: { name: 'minimum', median: minimum(ours.prefills) },
        note: `${before.steps} steps, ${resets(before.prefills)} reset(s); its own minimum ${minimum(before.prefills)} (fewer tools described)`,
      },
    );
  }
  const longOurs = await run(false, defaultRequestProcessors, true);
  const longBefore = await run(false, processorsBefore, true);
  const trimmed = 'prefilled tokens, 16-step tool run over a 2,048-token window (trimming), prompt (Qwen3)';
  rows.push({
    group: 'prefill',
    name: `${trimmed}: ours (large blocks)`,
    median: total(longOurs.prefills),
    unit: 'tokens',
    peer: { name: 'before #13 (one turn a step)', median: total(longBefore.prefills) },
    note: `${longOurs.steps} steps, ${resets(longOurs.prefills)} reset(s); before: ${resets(longBefore.prefills)}`,
  });
  const them = await peer();
  const viaAiSdk = await aiSdkOverOurs();
  rows.push({
    group: 'prefill',
    name: 'prefilled tokens, 8-step tool run, 20 tools, prompt (Qwen3): AI SDK streamText + inpageModel (ours, no toolkit)',
    median: total(viaAiSdk.prefills),
    unit: 'tokens',
    peer: { name: 'its minimum', median: minimum(viaAiSdk.prefills) },
    target: '≤ 1.05× minimum',
    note: `${viaAiSdk.steps} steps, ${resets(viaAiSdk.prefills)} reset(s); @browser-ai/web-llm on the same run: ${(total(them.prefills) / minimum(them.prefills)).toFixed(2)}× its minimum`,
  });
  rows.push({
    group: 'prefill',
    name: 'prefilled tokens, 8-step tool run, 20 tools, prompt (Qwen3): AI SDK + @browser-ai/web-llm (peer, no toolkit)',
    median: total(them.prefills),
    unit: 'tokens',
    peer: { name: 'its minimum', median: minimum(them.prefills) },
    note: `${them.steps} steps, ${resets(them.prefills)} reset(s)`,
  });
  return rows;
};

export default suite;
