/**
 * The load scenario of issue 31's chaos run: 20 agents on one page, each in its
 * own real worker with a session of its own in one IndexedDB database, 1,000
 * runs in all. Each run is two scripted steps: the model calls a page tool and
 * one that needs approval (onApproval says yes), then answers. The runs are
 * taken in 50 rounds; in each round all 20 agents run at once, so a run's wall
 * time is its latency with 19 others in flight on the same page and database.
 *
 * Every run is checked (it ends with its answer, both its tools ran once with
 * its arguments, the person was asked once, with those arguments): a run that
 * did otherwise is counted as failed, never dropped.
 *
 * Heap is sampled before the first run and after every 100: the page's
 * performance.memory.usedJSHeapSize (Chromium; the page's own heap, not the
 * workers', and with whatever garbage the last GC left), and, when the page is
 * cross-origin isolated (scripts/bench.mjs serves it so),
 * performance.measureUserAgentSpecificMemory(), which counts the workers too
 * and is taken at a garbage collection, so it sees live memory. Growth per run
 * is the slope of a least-squares line through the samples after the first
 * 100 runs (the warm-up: JIT, caches, the first events of each session). Each
 * session keeps its history, so some growth per run is the sessions' own; it
 * stays far below the window of events a run reads (recent-events.ts).
 *
 * Measured on aedaf69 (2 shared cores): 0 of 1,000 runs failed; a run took
 * 365 ms at the median, 566 ms at p95, with 19 others in flight. The workers
 * grew 3.9 KiB a run, the sessions' own history: with one agent and 1,000 runs
 * (5,000 events) a worker levels off at ~15 MB after ~300 runs. The page's
 * live heap grew 1.2 KiB a run and does not level off (0.6 KiB a run of text
 * alone, 1.0 with a tool call, one agent, 1,000 runs): after a forced GC each
 * run leaves ~7 Promises and ~14 Functions behind, the reactions that
 * WorkerConnection's Promise.race([…, this.dead]) hangs on a promise that
 * settles only when the worker dies.
 */
import { createAgent, defineTool, z, type Agent, type ScriptedTurn } from '../src/index';
import { summarize, type BenchRow, type BenchSuite } from './harness';

const AGENTS = 20;
const RUNS_PER_AGENT = 50;
const SAMPLE_EVERY = 100;
const WARMUP_RUNS = 100;

interface PageMemory {
  usedJSHeapSize: number;
}
interface UserAgentMemory {
  bytes: number;
  breakdown: { bytes: number; attribution: { scope: string }[] }[];
}
interface HeapSample {
  runs: number;
  page?: number;
  /** measureUserAgentSpecificMemory, taken at a GC: page and workers, the page's part, the workers' part. */
  all?: number;
  pageLive?: number;
  workers?: number;
}

/** What each agent's page saw, to check every run against. */
interface Seen {
  notes: string[];
  deleted: string[];
  asked: string[];
}

function turnsFor(agent: number): ScriptedTurn[] {
  return Array.from({ length: RUNS_PER_AGENT }, (_, run): ScriptedTurn[] => [
    {
      toolCalls: [
        { name: 'add_note', args: { text: `note ${agent}.${run}` } },
        { name: 'delete_note', args: { text: `old ${agent}.${run}` } },
      ],
    },
    { text: `done ${agent}.${run}` },
  ]).flat();
}

function toolsFor(seen: Seen) {
  return [
    defineTool({
      name: 'add_note',
      description: 'Adds a note to this page.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        seen.notes.push(text);
        return { added: text };
      },
    }),
    defineTool({
      name: 'delete_note',
      description: 'Deletes a note from this page.',
      needsApproval: true,
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        seen.deleted.push(text);
        return { deleted: text };
      },
    }),
  ];
}

async function sampleHeap(runs: number): Promise<HeapSample> {
  const sample: HeapSample = { runs };
  const memory = (performance as unknown as { memory?: PageMemory }).memory;
  if (memory) sample.page = memory.usedJSHeapSize;
  const measureAll = (
    performance as unknown as { measureUserAgentSpecificMemory?: () => Promise<UserAgentMemory> }
  ).measureUserAgentSpecificMemory?.bind(performance);
  if (crossOriginIsolated && measureAll) {
    const result = await measureAll();
    sample.all = result.bytes;
    sample.workers = result.breakdown
      .filter((entry) => entry.attribution.some((where) => where.scope === 'DedicatedWorkerGlobalScope'))
      .reduce((sum, entry) => sum + entry.bytes, 0);
    sample.pageLive = sample.all - sample.workers;
  }
  console.info(`bench: load: after ${runs} runs, heap ${JSON.stringify(sample)}`);
  return sample;
}

/** Bytes per run: the least-squares slope through (runs, bytes). */
function slope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx ? sxy / sxx : 0;
}

/** One run of one agent, checked: the reason it failed, or undefined. */
async function checkedRun(agent: Agent, seen: Seen, a: number, r: number): Promise<string | undefined> {
  const before = { notes: seen.notes.length, deleted: seen.deleted.length, asked: seen.asked.length };
  try {
    const result = await agent.send(`run ${r}`);
    const problems: string[] = [];
    if (result.endReason !== 'answer') problems.push(`ended ${result.endReason}: ${result.error?.message}`);
    if (result.text !== `done ${a}.${r}`) problems.push(`answered "${result.text}"`);
    const same = (list: string[], from: number, want: string) =>
      list.length === from + 1 && list[from] === want ? '' : `${list.slice(from).join(', ') || 'nothing'}`;
    const notes = same(seen.notes, before.notes, `note ${a}.${r}`);
    if (notes) problems.push(`add_note ran for ${notes}`);
    const deleted = same(seen.deleted, before.deleted, `old ${a}.${r}`);
    if (deleted) problems.push(`delete_note ran for ${deleted}`);
    const asked = same(seen.asked, before.asked, `old ${a}.${r}`);
    if (asked) problems.push(`the person was asked about ${asked}`);
    return problems.length ? problems.join('; ') : undefined;
  } catch (error) {
    return `threw ${error instanceof Error ? error.message : String(error)}`;
  }
}

const suite: BenchSuite = async () => {
  const dbName = `bench-load-${crypto.randomUUID()}`;
  const agents: { agent: Agent; seen: Seen }[] = [];
  const startTimes: number[] = [];
  try {
    for (let a = 0; a < AGENTS; a++) {
      const seen: Seen = { notes: [], deleted: [], asked: [] };
      const t0 = performance.now();
      const agent = await createAgent({
        model: { engine: 'scripted', turns: turnsFor(a) },
        instructions: 'You keep the notes on this page.',
        tools: toolsFor(seen),
        storage: 'indexeddb',
        dbName,
        maxSteps: 4,
        onApproval: (call) => {
          seen.asked.push((call.args as { text: string }).text);
          return true;
        },
      });
      startTimes.push(performance.now() - t0);
      agents.push({ agent, seen });
    }
    const sessions = new Set(agents.map(({ agent }) => agent.sessionId));

    const wall: number[] = [];
    const rounds: number[] = [];
    const failures: string[] = [];
    const heap: HeapSample[] = [await sampleHeap(0)];
    let done = 0;
    for (let r = 0; r < RUNS_PER_AGENT; r++) {
      const roundStart = performance.now();
      await Promise.all(
        agents.map(async ({ agent, seen }, a) => {
          const t0 = performance.now();
          const failed = await checkedRun(agent, seen, a, r);
          wall.push(performance.now() - t0);
          if (failed) failures.push(`agent ${a}, run ${r}: ${failed}`);
        }),
      );
      rounds.push(performance.now() - roundStart);
      done += AGENTS;
      if (done % SAMPLE_EVERY === 0) heap.push(await sampleHeap(done));
    }
    for (const failure of failures.slice(0, 10)) console.info(`bench: load: failed: ${failure}`);

    const runs = AGENTS * RUNS_PER_AGENT;
    const latency = summarize(wall);
    const perRound = summarize(rounds);
    const rows: BenchRow[] = [
      {
        group: 'load',
        name: `createAgent, ${AGENTS} agents one after another`,
        ...pick(summarize(startTimes)),
        unit: 'ms',
      },
      {
        group: 'load',
        name: `run wall time, ${AGENTS} agents at once (${runs} runs)`,
        ...pick(latency),
        unit: 'ms',
        note: `2 steps, 2 page tools, 1 approval; ${sessions.size} sessions, IndexedDB`,
      },
      {
        group: 'load',
        name: `round of ${AGENTS} runs at once`,
        ...pick(perRound),
        unit: 'ms',
        note: `${(perRound.median / AGENTS).toFixed(1)} ms per run at the median round`,
      },
      {
        group: 'load',
        name: 'runs failed',
        median: (100 * failures.length) / runs,
        unit: '%',
        target: '0',
        note: `${failures.length} of ${runs}${failures[0] ? `; first: ${failures[0]}` : ''}`,
      },
    ];
    // What the sessions hold afterwards, to set the heap's growth per run beside.
    let events = 0;
    let json = 0;
    for (const { agent } of agents) {
      const log = (await agent.sessions.get(agent.sessionId))!.events;
      events += log.length;
      json += JSON.stringify(log).length;
    }
    const stored = `a run stores ${(events / runs).toFixed(1)} events, ${(json / runs / 1024).toFixed(1)} KiB as JSON`;
    rows.push(...heapRows(heap, stored));
    return rows;
  } finally {
    await Promise.all(agents.map(({ agent }) => agent.close()));
    indexedDB.deleteDatabase(dbName);
  }
};

function pick(measured: { median: number; p95: number }) {
  return { median: measured.median, p95: measured.p95 };
}

function heapRows(heap: HeapSample[], stored: string): BenchRow[] {
  const rows: BenchRow[] = [];
  const after = heap.filter((sample) => sample.runs >= WARMUP_RUNS);
  const fit = (key: 'page' | 'pageLive' | 'workers') =>
    slope(
      after.flatMap((sample) => (sample[key] === undefined ? [] : [[sample.runs, sample[key]!] as [number, number]])),
    );
  const mib = (bytes: number | undefined) => (bytes === undefined ? '?' : `${(bytes / 2 ** 20).toFixed(1)} MiB`);
  const first = heap[0]!;
  const last = heap.at(-1)!;
  const span = `${WARMUP_RUNS}–${last.runs}`;
  if (first.page !== undefined)
    rows.push({
      group: 'load',
      name: `page heap per run (usedJSHeapSize, fit over runs ${span})`,
      median: fit('page'),
      unit: 'bytes',
      note: `${mib(first.page)} before, ${mib(last.page)} after; the page only, garbage included`,
    });
  if (first.all !== undefined) {
    rows.push({
      group: 'load',
      name: `page heap per run, live (measureUserAgentSpecificMemory, fit over runs ${span})`,
      median: fit('pageLive'),
      unit: 'bytes',
      note: `${mib(first.pageLive)} before, ${mib(last.pageLive)} after, at a GC; the bench's own lists hold ~0.2 KiB a run`,
    });
    rows.push({
      group: 'load',
      name: `workers' heap per run, live (fit over runs ${span})`,
      median: fit('workers'),
      unit: 'bytes',
      note: `${mib(first.workers)} before, ${mib(last.workers)} after, ${AGENTS} workers; ${stored}`,
    });
  } else
    console.info(
      'bench: load: the workers’ heap was not measured: measureUserAgentSpecificMemory needs a cross-origin isolated page',
    );
  return rows;
}

export default suite;
