/**
 * Loop overhead per step: a scripted engine that answers at once, one page
 * tool through the worker boundary, events stored in IndexedDB; beside its
 * floor (two bare IndexedDB writes and one worker round trip, the least any
 * durable step costs) and the AI SDK's generateText with its mock model and
 * the same tool, in this page. Each runs 10 conversations of 100
 * tool-calling steps, taken in turns (one conversation of each, ten times),
 * so that a busy machine slows all of them alike; a step's time is the gap
 * between two consecutive steps finishing. Goals (issue 23): the step at most
 * 1.3 times its floor, the step with memory storage at most 1.3 times the AI
 * SDK's.
 *
 * And the AI SDK's generateText with inpageModel (inpage-agent/ai-sdk): the
 * same conversations, the AI SDK's loop and tool, each step a scripted model
 * step in our worker (prompt converted, sent across, deltas streamed back,
 * raw output sealed and checked), beside the same mock model.
 */
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z as zod } from 'zod';
import { openDB } from 'idb';
import { createAgent, defineTool, z } from '../src/index';
import { inpageModel } from '../src/ai-sdk/index';
import { summarize, type BenchRow, type BenchSuite } from './harness';

const CONVERSATIONS = 10;
const STEPS = 100;

async function ours(storage: 'indexeddb' | 'memory', conversations: number): Promise<number[]> {
  const gaps: number[] = [];
  let counter = 0;
  const echo = defineTool({
    name: 'count',
    description: 'Counts up.',
    parameters: z.object({ by: z.number() }),
    execute: ({ by }) => ({ value: (counter += by) }),
  });
  for (let c = 0; c < conversations; c++) {
    // Each call new, in both arms: the same call again is refused as a repeat (flow/call-processors/repeat-guard.ts).
    const turns = [
      ...Array.from({ length: STEPS - 1 }, (_, i) => ({ toolCalls: [{ name: 'count', args: { by: i + 1 } }] })),
      { text: 'done' },
    ];
    const agent = await createAgent({
      model: { engine: 'scripted', turns, contextWindow: 1_000_000 },
      tools: [echo],
      storage,
      dbName: `bench-loop-${crypto.randomUUID()}`,
      maxSteps: STEPS + 1,
    });
    let last: number | undefined;
    for await (const event of agent.run('count')) {
      if (event.partial || event.content?.role !== 'model') continue;
      const now = performance.now();
      if (last !== undefined) gaps.push(now - last);
      last = now;
    }
    await agent.close();
  }
  return gaps;
}

/**
 * The physical floor of a durable step: what no runtime that stores the
 * model's call before the tool runs can avoid. Two bare IndexedDB puts (the
 * model event, the tool's answer; each its own transaction, as durability
 * needs) and one postMessage round trip (the call to the page and back),
 * with values shaped like ours.
 */
async function floor(conversations: number): Promise<number[]> {
  const db = await openDB(`bench-floor-${crypto.randomUUID()}`, 1, {
    upgrade: (database) => database.createObjectStore('events', { keyPath: ['sessionId', 'seq'] }),
  });
  const worker = new Worker(new URL('./echo-worker.ts', import.meta.url), { type: 'module' });
  const roundTrip = (message: unknown) =>
    new Promise<void>((resolve) => {
      worker.onmessage = () => resolve();
      worker.postMessage(message);
    });
  const event = (seq: number, role: string) => ({
    id: `ev-${seq}`,
    sessionId: 's',
    invocationId: 'inv',
    seq,
    author: 'assistant',
    timestamp: Date.now(),
    content: { role, parts: [{ functionCall: { id: `call-${seq}`, name: 'count', args: { by: 1 } } }] },
  });
  const samples: number[] = [];
  let seq = 0;
  for (let i = 0; i < conversations * STEPS; i++) {
    const t0 = performance.now();
    await db.put('events', event(++seq, 'model'));
    await roundTrip({ callId: `call-${seq}`, name: 'count', args: { by: 1 }, state: {} });
    await db.put('events', event(++seq, 'tool'));
    samples.push(performance.now() - t0);
  }
  worker.terminate();
  db.close();
  // A fresh database and worker, as each of our conversations has: the first steps warm them up.
  return samples.slice(10);
}

/** The AI SDK's generateText over our model in its worker: one model for every conversation, the script played on. */
async function aiSdkOverOurs(): Promise<number[]> {
  const gaps: number[] = [];
  let counter = 0;
  const conversation = [
    ...Array.from({ length: STEPS - 1 }, (_, i) => ({ toolCalls: [{ name: 'count', args: { by: i + 1 } }] })),
    { text: 'done' },
  ];
  const model = inpageModel({
    engine: 'scripted',
    turns: Array.from({ length: CONVERSATIONS }, () => conversation).flat(),
    contextWindow: 1_000_000,
  });
  try {
    for (let c = 0; c < CONVERSATIONS; c++) {
      let last: number | undefined;
      await generateText({
        model,
        prompt: 'count',
        tools: {
          count: tool({
            description: 'Counts up.',
            inputSchema: zod.object({ by: zod.number() }),
            execute: async ({ by }) => ({ value: (counter += by) }),
          }),
        },
        stopWhen: stepCountIs(STEPS + 1),
        onStepFinish: () => {
          const now = performance.now();
          if (last !== undefined) gaps.push(now - last);
          last = now;
        },
      });
    }
  } finally {
    await model.close();
  }
  return gaps;
}

async function aiSdk(conversations: number): Promise<number[]> {
  const gaps: number[] = [];
  let counter = 0;
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  for (let c = 0; c < conversations; c++) {
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        step += 1;
        return step < STEPS
          ? {
              content: [{ type: 'tool-call', toolCallId: `c${step}`, toolName: 'count', input: '{"by":1}' }],
              finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
              usage,
              warnings: [],
            }
          : {
              content: [{ type: 'text', text: 'done' }],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage,
              warnings: [],
            };
      },
    } as ConstructorParameters<typeof MockLanguageModelV3>[0]);
    let last: number | undefined;
    await generateText({
      model,
      prompt: 'count',
      tools: {
        count: tool({
          description: 'Counts up.',
          inputSchema: zod.object({ by: zod.number() }),
          execute: async ({ by }) => ({ value: (counter += by) }),
        }),
      },
      stopWhen: stepCountIs(STEPS + 1),
      onStepFinish: () => {
        const now = performance.now();
        if (last !== undefined) gaps.push(now - last);
        last = now;
      },
    });
  }
  return gaps;
}

const suite: BenchSuite = async () => {
  const samples = { peer: [] as number[], bare: [] as number[], stored: [] as number[], memory: [] as number[] };
  for (let c = 0; c < CONVERSATIONS; c++) {
    samples.peer.push(...(await aiSdk(1)));
    samples.bare.push(...(await floor(1)));
    samples.stored.push(...(await ours('indexeddb', 1)));
    samples.memory.push(...(await ours('memory', 1)));
  }
  const peer = summarize(samples.peer);
  const bare = summarize(samples.bare);
  const stored = summarize(samples.stored);
  const memory = summarize(samples.memory);
  // One model for every conversation (its script plays on), so it runs after the others, once.
  const viaAiSdk = summarize(await aiSdkOverOurs());
  const peerRow = { name: 'AI SDK generateText + MockLanguageModelV3', median: peer.median };
  const floorRow = { name: 'floor: 2 bare idb puts + 1 postMessage round trip', median: bare.median };
  const rows: BenchRow[] = [
    {
      group: 'loop',
      name: 'step: scripted model + page tool via worker, IndexedDB',
      median: stored.median,
      p95: stored.p95,
      unit: 'ms',
      peer: peerRow,
      target: 'ratio ≤ 2',
      note: `${stored.samples.length} steps`,
    },
    {
      group: 'loop',
      name: 'step: same, against the physical floor',
      median: stored.median,
      p95: stored.p95,
      unit: 'ms',
      peer: floorRow,
      target: 'ratio ≤ 1.3',
      note: `floor p95 ${bare.p95.toFixed(3)} ms`,
    },
    {
      group: 'loop',
      name: 'step: same, memory storage (boundary only)',
      median: memory.median,
      p95: memory.p95,
      unit: 'ms',
      peer: peerRow,
      target: 'ratio ≤ 1.3',
      note: 'isolates the worker round trips from IndexedDB',
    },
    {
      group: 'loop',
      name: 'step: AI SDK generateText + inpageModel (scripted model in our worker, the AI SDK runs the tool)',
      median: viaAiSdk.median,
      p95: viaAiSdk.p95,
      unit: 'ms',
      peer: peerRow,
      note: `${viaAiSdk.samples.length} steps; the prompt grows each step and crosses to the worker whole`,
    },
  ];
  return rows;
};
export default suite;
