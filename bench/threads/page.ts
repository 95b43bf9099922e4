// One request of a GGUF model in the agent's worker on `threads` threads, and how the page keeps up while the model
// reads the prompt and while it decodes: the gaps between animation frames (a page that keeps 60 frames a second
// has 16.7 ms gaps), the long tasks the browser reports, and how late a 10 ms timer fires (the delay a click or a
// keypress would wait). Driven by scripts/measure-threads.mjs. `threads` undefined: the engine chooses (it measures
// the machine before the load, src/model/engines/wllama/thread-choice.ts).
import { createAgent, type ModelRequest } from '../../src/index';

interface Phase {
  frames: number[];
  timerLate: number[];
  longTasks: number[];
}

const SYSTEM =
  'You help with this page: its to-dos, notes, products table and contact form. Answer briefly and in plain words. ' +
  'The page has a to-do list, a list of notes, a table of four products (Kettle 39, Teapot 24, Grinder 89, Mug 9) ' +
  'with their prices and stock, and a contact form with a name, an email and a message. ';

async function measure(url: string, threads: number | undefined, repeat = 4) {
  const agent = await createAgent({
    model: { engine: 'wllama', url, ...(threads !== undefined && { threads }) },
    storage: 'memory',
  });
  const request: ModelRequest = {
    messages: [
      { role: 'system', content: SYSTEM.repeat(repeat) },
      {
        role: 'user',
        content: 'Which product is the cheapest, and how many are in stock? Then say something about tea.',
      },
    ],
    tools: [],
    sampling: { maxTokens: 48 },
  };
  const phases: Record<'prefill' | 'decode', Phase> = {
    prefill: { frames: [], timerLate: [], longTasks: [] },
    decode: { frames: [], timerLate: [], longTasks: [] },
  };
  let phase: Phase = phases.prefill;
  let running = true;
  let last = performance.now();
  const frame = (now: number) => {
    phase.frames.push(now - last);
    last = now;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const tick = () => {
    const asked = performance.now();
    setTimeout(() => {
      phase.timerLate.push(performance.now() - asked - 10);
      if (running) tick();
    }, 10);
  };
  tick();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) phase.longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });

  const t0 = performance.now();
  let first = 0;
  let usage: { promptTokens: number; completionTokens: number } | undefined;
  for await (const delta of agent.generate(request)) {
    if (!first && (delta.type === 'text' || delta.type === 'reasoning')) {
      first = performance.now();
      phase = phases.decode;
    }
    if (delta.type === 'finish') usage = delta.usage;
  }
  const end = performance.now();
  running = false;
  observer.disconnect();
  const info = agent.info?.model;
  await agent.close();
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return { n: values.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0 };
  };
  const of = (p: Phase) => ({
    frameGapMs: summary(p.frames),
    timerLateMs: summary(p.timerLate),
    longTasks: p.longTasks.length,
    longTaskMs: p.longTasks.reduce((a, b) => a + b, 0),
  });
  return {
    isolated: crossOriginIsolated,
    asked: threads ?? 'auto',
    threads: info?.threads,
    notice: info?.notice,
    label: info?.label,
    promptTokens: usage?.promptTokens,
    completionTokens: usage?.completionTokens,
    firstTokenMs: first - t0,
    prefillTokensPerSecond: (usage?.promptTokens ?? 0) / ((first - t0) / 1000),
    decodeTokensPerSecond: ((usage?.completionTokens ?? 1) - 1) / ((end - first) / 1000),
    prefill: of(phases.prefill),
    decode: of(phases.decode),
  };
}

(window as unknown as { measure: typeof measure }).measure = measure;
