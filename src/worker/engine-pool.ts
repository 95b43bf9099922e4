/**
 * Engines by model, shared by every agent host in this worker. In a
 * SharedWorker that means every tab of the origin: the weights load once,
 * and generations take turns (one engine decodes one request at a time).
 */
import type { ModelEngine, ModelProgress, ModelRequest } from '../model/engine';
import { createEngine } from '../model/create-engine';
import type { HostConfig } from '../contract/protocol';

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
  ): Promise<{ engine: ModelEngine; reused: boolean; release(): Promise<void> }> {
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
      resume: engine.resume ? (history) => engine.resume!(history) : undefined,
      isCached: engine.isCached ? () => engine.isCached!() : undefined,
      deleteCache: engine.deleteCache ? () => engine.deleteCache!() : undefined,
      dispose: async () => undefined,
      generate: (request: ModelRequest, signal?: AbortSignal) => queued(entry, () => engine.generate(request, signal)),
    };
  }
}

async function* queued<T>(entry: Entry, start: () => AsyncIterable<T>): AsyncGenerator<T> {
  let done!: () => void;
  const turn = new Promise<void>((resolve) => (done = resolve));
  const previous = entry.queue;
  entry.queue = previous.then(() => turn);
  await previous;
  try {
    yield* start();
  } finally {
    done();
  }
}
