/**
 * Engines by model, shared by every agent host in this worker. In a
 * SharedWorker that means every tab of the origin: the weights load once,
 * and generations take turns (one engine decodes one request at a time).
 */
import type { ChoiceRequest, ModelDelta, ModelEngine, ModelProgress, ModelRequest, PromptRead } from '../model/engine';
import { createEngine } from '../model/engines/create-engine';
import type { HostConfig } from '../contract/protocol';
import { AgentError } from '../errors';

interface Entry {
  engine: ModelEngine;
  loading: Promise<void>;
  listeners: Set<(progress: ModelProgress) => void>;
  users: number;
  queue: Promise<unknown>;
}

export class EnginePool {
  private readonly entries = new Map<string, Entry>();

  /** An engine for this model config, loaded; `release` when the host is done with it. */
  async acquire(
    model: HostConfig['model'],
    onProgress: (progress: ModelProgress) => void,
  ): Promise<{
    engine: ModelEngine;
    reused: boolean;
    release(): Promise<void>;
    /**
     * Runs `work` with the engine itself in the engine's next turn, taken now (before any await), so that
     * what is asked later waits for it; `work` must not use the serialized engine (it would wait for itself).
     */
    inTurn<T>(work: (engine: ModelEngine) => Promise<T>, signal?: AbortSignal): Promise<T>;
  }> {
    const key = JSON.stringify(model);
    let entry = this.entries.get(key);
    const reused = entry !== undefined;
    if (!entry) {
      const engine = createEngine(model);
      const listeners = new Set<(progress: ModelProgress) => void>();
      const created: Entry = {
        engine,
        listeners,
        users: 0,
        queue: Promise.resolve(),
        loading: engine.load((progress) => listeners.forEach((listener) => listener(progress))),
      };
      entry = created;
      this.entries.set(key, created);
      created.loading.catch(() => this.entries.delete(key));
    }
    const current = entry;
    current.users += 1;
    // Kept while the host holds the engine: an engine that loads again (wllama's, after llama.cpp's worker died) says so.
    current.listeners.add(onProgress);
    try {
      await current.loading;
    } catch (error) {
      current.users -= 1;
      current.listeners.delete(onProgress);
      throw error;
    }
    onProgress({ progress: 1, text: `${current.engine.info.label} is ready.` });
    return {
      engine: this.serialized(current),
      reused,
      inTurn: (work, signal) => inTurn(current, () => work(current.engine), signal),
      release: async () => {
        current.listeners.delete(onProgress);
        current.users -= 1;
        if (current.users > 0) return;
        this.entries.delete(key);
        await current.engine.dispose();
      },
    };
  }

  /** The same engine, but one generation at a time across all hosts. */
  private serialized(entry: Entry): ModelEngine {
    const { engine } = entry;
    return {
      info: engine.info,
      load: async () => entry.loading,
      countTokens: (text) => engine.countTokens(text),
      countsWithTokenizer: engine.countsWithTokenizer ? () => engine.countsWithTokenizer!() : undefined,
      resume: engine.resume ? (history) => engine.resume!(history) : undefined,
      isCached: engine.isCached ? () => engine.isCached!() : undefined,
      deleteCache: engine.deleteCache ? () => engine.deleteCache!() : undefined,
      dispose: async () => undefined,
      generate: (request: ModelRequest, signal?: AbortSignal) =>
        queued(entry, () => engine.generate(request, signal), signal),
      continueTurn: engine.continueTurn
        ? (request: ModelRequest, turn: string, signal?: AbortSignal) =>
            queued(entry, () => engine.continueTurn!(request, turn, signal), signal)
        : undefined,
      callChance: engine.callChance
        ? (request: ModelRequest, signal?: AbortSignal, onRead?: (progress: PromptRead) => void) =>
            inTurn(entry, () => engine.callChance!(request, signal, onRead), signal)
        : undefined,
      choose: engine.choose
        ? (request: ChoiceRequest, signal?: AbortSignal, onRead?: (progress: PromptRead) => void) =>
            inTurn(entry, () => engine.choose!(request, signal, onRead), signal)
        : undefined,
      readAhead: engine.readAhead
        ? (request: ModelRequest, signal?: AbortSignal, onRead?: (progress: PromptRead) => void) =>
            inTurn(entry, () => engine.readAhead!(request, signal, onRead), signal)
        : undefined,
    };
  }
}

/** The engine's next turn: resolves when the turn before it ends (false: `signal` aborted the wait first), and its end. */
function takeTurn(entry: Entry, signal?: AbortSignal): { ready: Promise<boolean>; done(): void } {
  let done!: () => void;
  const turn = new Promise<void>((resolve) => (done = resolve));
  const previous = entry.queue;
  entry.queue = previous.then(() => turn);
  if (!signal) return { ready: previous.then(() => true), done };
  // A step aborted while it waits (behind a prompt read ahead, or another tab's step) ends at once; its turn passes.
  let onAbort = () => undefined as void;
  const aborted = new Promise<boolean>((resolve) => {
    onAbort = () => resolve(false);
    if (signal.aborted) resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const ready = Promise.race([previous.then(() => true), aborted]);
  void ready.then(() => signal.removeEventListener('abort', onAbort));
  return { ready, done };
}

async function* queued(
  entry: Entry,
  start: () => AsyncIterable<ModelDelta>,
  signal?: AbortSignal,
): AsyncGenerator<ModelDelta> {
  const turn = takeTurn(entry, signal);
  try {
    if (!(await turn.ready)) {
      yield { type: 'finish', reason: 'abort' };
      return;
    }
    yield* start();
  } finally {
    turn.done();
  }
}

async function inTurn<T>(entry: Entry, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const turn = takeTurn(entry, signal);
  try {
    if (!(await turn.ready)) throw new AgentError('aborted', 'Aborted while it waited for the model.');
    return await work();
  } finally {
    turn.done();
  }
}
