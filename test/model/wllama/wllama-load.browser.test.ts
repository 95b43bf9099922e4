/**
 * The wllama engine loading a GGUF in Chromium: llama.cpp's real path, on the
 * tiny random-weight model (scripts/tiny-gguf.mjs) served from this test's own
 * origin at /models/. What a page sees: progress with bytes, the cache, and an
 * AgentError that says what to do for every way a load fails.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentError } from '../../../src/errors';
import type { ModelEngine, ModelProgress } from '../../../src/model/engine';
import { createEngine } from '../../../src/model/engines/create-engine';
import { GGUF_CACHE } from '../../../src/model/engines/wllama/gguf-cache';
import { settleWithin } from '../settles';

const TINY = '/models/tiny-gemma3.gguf';
const engines: ModelEngine[] = [];

function engine(url: string | string[], extra: Record<string, unknown> = {}): ModelEngine {
  const made = createEngine({ engine: 'wllama', url, ...extra } as never);
  engines.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(engines.splice(0).map((made) => made.dispose()));
});

describe('loading a GGUF', () => {
  it('downloads with byte progress, loads on one thread, and reads the family from the GGUF', async () => {
    await caches.delete(GGUF_CACHE);
    const progress: ModelProgress[] = [];
    const model = engine(TINY);
    expect(await model.isCached!()).toBe(false);
    await model.load((p) => progress.push(p));
    const bytes = progress.filter((p) => p.loadedBytes !== undefined);
    expect(bytes.length).toBeGreaterThan(1);
    expect(bytes.at(-1)).toMatchObject({ loadedBytes: bytes.at(-1)!.totalBytes });
    expect(bytes.at(-1)!.totalBytes).toBeGreaterThan(10_000_000);
    expect(progress.some((p) => /Downloading tiny-gemma3\.gguf: \d+ MB of \d+ MB/.test(p.text))).toBe(true);
    expect(progress.at(-1)).toMatchObject({ progress: 1 });
    expect(model.info).toMatchObject({
      engine: 'wllama',
      modelId: 'tiny-random-gemma3',
      threads: 1,
      contextWindow: 4096,
    });
    expect(model.info.label).toBe('tiny-random-gemma3 (llama.cpp, one CPU thread)');
    expect(await model.isCached!()).toBe(true);
  }, 60_000);

  it('a second load comes from the cache, and deleteCache() removes it', async () => {
    const first = engine(TINY);
    await first.load();
    const progress: string[] = [];
    const second = engine(TINY);
    await second.load((p) => progress.push(p.text));
    expect(progress[0]).toMatch(/^Found tiny-gemma3\.gguf \(\d+ MB\) in this browser's cache\.$/);
    await second.deleteCache!();
    expect(await second.isCached!()).toBe(false);
  }, 60_000);
});

describe('a load that fails says why', () => {
  it('a 404 is model-not-found, naming the URL', async () => {
    const { error } = await settleWithin(engine('/models/no-such-model.gguf').load(), 10_000);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: 'model-not-found' });
    expect((error as Error).message).toContain(`${location.origin}/models/no-such-model.gguf (HTTP 404)`);
  });

  it('an HTML page where the file should be is model-invalid', async () => {
    const { error } = await settleWithin(engine('/test/no-such-folder/model.gguf').load(), 10_000);
    expect(error).toMatchObject({ code: 'model-invalid' });
    expect((error as Error).message).toContain('HTML page instead of the file');
  });

  it('a file that is not a GGUF is model-invalid, and nothing is cached', async () => {
    const model = engine('/favicon.svg', { toolFormat: 'hermes' });
    const { error } = await settleWithin(model.load(), 10_000);
    expect(error).toMatchObject({ code: 'model-invalid' });
    expect((error as Error).message).toContain(
      'favicon.svg is not a GGUF model file: it starts like an HTML or XML document',
    );
    expect(await model.isCached!()).toBe(false);
  });

  it('a model larger than llama.cpp can hold is out-of-memory, before it downloads', async () => {
    const { error } = await settleWithin(engine('/models/huge/big.gguf').load(), 10_000);
    expect(error).toMatchObject({ code: 'out-of-memory' });
    expect((error as Error).message).toMatch(/big\.gguf is 5\.0 GB, more than llama\.cpp can hold in a browser/);
  });

  it('a context too large for memory is out-of-memory, in the words of llama.cpp', async () => {
    const { error } = await settleWithin(engine(TINY, { contextWindow: 64_000_000 }).load(), 60_000);
    expect(error).toMatchObject({ code: 'out-of-memory' });
    expect((error as Error).message).toMatch(/llama\.cpp ran out of memory \(.+\)/);
  }, 90_000);

  it('an unknown toolFormat is refused before any download', () => {
    expect(() => engine(TINY, { toolFormat: 'nope' })).toThrow(/toolFormat "nope" is not a tool-call format/);
  });

  it('a load that llama.cpp never finishes ends with an error after its stall time', async () => {
    const { error } = await settleWithin(
      engine(TINY, { wasmUrl: '/models/stall/wllama.wasm', stallMs: 3000 }).load(),
      20_000,
    );
    expect(error).toMatchObject({ code: 'model-failed' });
    expect((error as Error).message).toMatch(/stalled: llama\.cpp has said nothing for 3 s/);
  }, 30_000);

  it('aborting a load rejects at once with aborted', async () => {
    const controller = new AbortController();
    // A model whose body stops after 8 bytes: the load is still under way when the abort comes, on any machine
    // (the whole tiny model once loaded within the 50 ms, and the test saw no abort).
    const loading = engine('/models/fault/stall-8/tiny-gemma3.gguf').load(undefined, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const { error } = await settleWithin(loading, 10_000);
    expect(error).toMatchObject({ code: 'aborted' });
  });
});
