/**
 * A GGUF's files between the server, Cache Storage and llama.cpp, when they
 * arrive broken (issue 31, item 2): no file that fails a check stays in the
 * cache, a bad copy found there is thrown away and downloaded again once, a
 * download that stops moving fails after model.downloadStallMs, and errors
 * say when a cached copy was thrown away. And (issue 30, item 6) a cache that
 * cannot hold the file does not fail the load, and model.sha256 is checked.
 *
 * The broken files come from the test server (scripts/gguf-faults.mjs,
 * scripts/model-files.mjs): /models/fault/<shape>/… is always broken,
 * /models/once/<shape>/<token>/… only for its first download. Each test
 * uses URLs of its own (a token in the query), so no test sees another's
 * cached copy.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentError } from '../../../src/errors';
import { createEngine } from '../../../src/model/engines/create-engine';
import type { ModelEngine, ModelProgress } from '../../../src/model/engine';
import { GGUF_CACHE } from '../../../src/model/engines/wllama/gguf-cache';
import { threadsFor } from '../../../src/model/engines/wllama/wllama-environment';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';
import { settleWithin } from '../settles';
import { FAULT_SHAPES } from '../../../scripts/gguf-faults.mjs';

const NAME = 'tiny-gemma3.gguf';
const engines: ModelEngine[] = [];
const start = agentsClosedAfterEach();

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(engines.splice(0).map((made) => made.dispose()));
});

/** A URL of this test's own: the server ignores the query, the cache does not. */
const own = (path: string) => `${path}?t=${crypto.randomUUID()}`;
const absolute = (url: string) => new URL(url, location.href).href;

function engine(url: string, extra: Record<string, unknown> = {}): ModelEngine {
  const made = createEngine({ engine: 'wllama', url, ...extra } as never);
  engines.push(made);
  return made;
}

async function load(model: ModelEngine, ms = 60_000) {
  const progress: ModelProgress[] = [];
  const { error } = await settleWithin(
    model.load((p) => progress.push(p)),
    ms,
  );
  return { error: error as AgentError | undefined, texts: progress.map((p) => p.text) };
}

async function cachedSize(url: string): Promise<number | undefined> {
  const response = await (await caches.open(GGUF_CACHE)).match(absolute(url));
  return response ? (await response.blob()).size : undefined;
}

/** Puts bytes into the cache under `url`, as a copy an older version (or a cut download) left there. */
async function cacheCopy(url: string, bytes: ArrayBuffer): Promise<void> {
  await (await caches.open(GGUF_CACHE)).put(absolute(url), new Response(bytes));
}

const bytesOf = async (path: string) => (await fetch(path)).arrayBuffer();
const sha256Of = async (bytes: ArrayBuffer) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');

describe('a broken file is never left in the cache', () => {
  // The shapes the chaos run tried; blocks-2000 and unknown-type pass the header check, and llama.cpp's loader
  // refuses them.
  it.each(FAULT_SHAPES)(
    '%s: model-invalid, and nothing cached',
    async (shape) => {
      const url = own(`/models/fault/${shape}/${NAME}`);
      const { error } = await load(engine(url));
      expect(error).toBeInstanceOf(AgentError);
      expect(error).toMatchObject({ code: 'model-invalid' });
      expect(error!.message).toMatch(/not kept in this browser's cache/);
      expect(await cachedSize(url)).toBeUndefined();
    },
    90_000,
  );

  it('a file cut at 50% fails; once the server has the whole file, the same URL loads', async () => {
    const url = own(`/models/once/cut-50/${crypto.randomUUID()}/${NAME}`);
    const first = await load(engine(url));
    expect(first.error).toMatchObject({ code: 'model-invalid' });
    expect(first.error!.message).toMatch(
      /is not a usable GGUF model file: it is cut short: its header describes \d+ bytes and the file has \d+ \(50% of it\)/,
    );
    const second = await load(engine(url));
    expect(second.error).toBeUndefined();
    expect(await cachedSize(url)).toBeGreaterThan(30_000_000);
  }, 90_000);
});

describe('a bad copy in the cache is thrown away and downloaded again, once', () => {
  it('a copy cut short (as an older version may have kept it) is replaced by a whole download', async () => {
    const url = own(`/models/${NAME}`);
    await cacheCopy(url, await bytesOf(`/models/fault/cut-50/${NAME}`));
    const { error, texts } = await load(engine(url));
    expect(error).toBeUndefined();
    expect(texts).toContainEqual(
      expect.stringMatching(
        /^The copy of tiny-gemma3\.gguf that was in this browser's cache was thrown away: it is cut short: .*\. Downloading it again\.$/,
      ),
    );
    expect(await cachedSize(url)).toBe((await bytesOf(`/models/${NAME}`)).byteLength);
  }, 90_000);

  it('a copy that only llama.cpp can tell is broken is replaced too', async () => {
    const url = own(`/models/${NAME}`);
    await cacheCopy(url, await bytesOf(`/models/fault/blocks-2000/${NAME}`));
    const { error, texts } = await load(engine(url));
    expect(error).toBeUndefined();
    expect(texts).toContainEqual(
      expect.stringMatching(
        /^llama\.cpp could not read the copy of tiny-gemma3\.gguf in this browser's cache \(.+\); it was thrown away\. Downloading it again\.$/,
      ),
    );
    expect(await cachedSize(url)).toBe((await bytesOf(`/models/${NAME}`)).byteLength);
  }, 90_000);

  it('when the server is broken too, the error says the cached copy was thrown away, and nothing is left', async () => {
    const url = own(`/models/fault/cut-50/${NAME}`);
    await cacheCopy(url, await bytesOf(`/models/fault/header-cut/${NAME}`));
    const { error } = await load(engine(url));
    expect(error).toMatchObject({ code: 'model-invalid' });
    expect(error!.message).toMatch(/\(50% of it\)/);
    expect(error!.message).toMatch(
      /The copy of tiny-gemma3\.gguf that was in this browser's cache was thrown away: it is cut short inside/,
    );
    expect(error!.details).toMatchObject({ removedFromCache: [absolute(url)] });
    expect(await cachedSize(url)).toBeUndefined();
  }, 90_000);

  it('when llama.cpp refuses the cached copy and the fresh download, the error says both were thrown away', async () => {
    const url = own(`/models/fault/blocks-2000/${NAME}`);
    await cacheCopy(url, await bytesOf(`/models/fault/blocks-2000/${NAME}`));
    const { error, texts } = await load(engine(url));
    expect(error).toMatchObject({ code: 'model-invalid' });
    expect(error!.message).toMatch(/llama\.cpp could not read the model/);
    expect(error!.message).toMatch(
      /The copy that was in this browser's cache was refused first and thrown away; this fresh download was refused too, and was not kept either\./,
    );
    expect(texts.filter((text) => text.startsWith('Downloading tiny-gemma3.gguf')).length).toBeGreaterThan(0);
    expect(await cachedSize(url)).toBeUndefined();
  }, 90_000);
});

describe('a download that stops moving', () => {
  it('fails after model.downloadStallMs with download-failed, and keeps nothing', async () => {
    const url = own(`/models/fault/stall-8/${NAME}`);
    const { error } = await load(engine(url, { downloadStallMs: 2000 }), 20_000);
    expect(error).toMatchObject({ code: 'download-failed' });
    expect(error!.message).toMatch(/stalled: nothing came for 2 s, after 8 bytes of 38 MB\. Nothing was kept\./);
    expect(error!.message).toMatch(/model\.downloadStallMs/);
    expect(await cachedSize(url)).toBeUndefined();
  }, 30_000);
});

describe('model.sha256', () => {
  it('the right hash loads (from the cache too, checked again)', async () => {
    const url = own(`/models/${NAME}`);
    const sha256 = await sha256Of(await bytesOf(url));
    expect((await load(engine(url, { sha256 }))).error).toBeUndefined();
    const again = await load(engine(url, { sha256: [sha256.toUpperCase()] }));
    expect(again.error).toBeUndefined();
    expect(again.texts).toContainEqual(expect.stringMatching(/^Checking the SHA-256 of tiny-gemma3\.gguf/));
  }, 90_000);

  it('another hash is model-invalid naming both, and the file is not kept', async () => {
    const url = own(`/models/${NAME}`);
    const actual = await sha256Of(await bytesOf(url));
    const given = 'ab'.repeat(32);
    const { error } = await load(engine(url, { sha256: given }));
    expect(error).toMatchObject({ code: 'model-invalid' });
    expect(error!.message).toContain(`its SHA-256 is ${actual}, and model.sha256 gives ${given}`);
    expect(await cachedSize(url)).toBeUndefined();
  }, 60_000);

  it('a cached copy that does not match is thrown away, and the error says so', async () => {
    const url = own(`/models/${NAME}`);
    const whole = await bytesOf(url);
    await cacheCopy(url, whole);
    const { error } = await load(engine(url, { sha256: 'cd'.repeat(32) }));
    expect(error).toMatchObject({ code: 'model-invalid' });
    expect(error!.message).toMatch(
      /The copy of tiny-gemma3\.gguf that was in this browser's cache was thrown away: its SHA-256 is [0-9a-f]{64}, and model\.sha256 gives (cd){32}\./,
    );
    expect(await cachedSize(url)).toBeUndefined();
  }, 60_000);

  it('one hash per file of a split model, or invalid-options before any download', () => {
    expect(() => engine(own(`/models/${NAME}`), { sha256: ['ab'.repeat(32), 'cd'.repeat(32)] })).toThrow(
      /model\.sha256 gives 2 hashes for 1 file: give one per file of model\.url, in the same order\./,
    );
    expect(() => engine(own(`/models/${NAME}`), { sha256: 'not-a-hash' })).toThrow(
      /model\.sha256 must be a SHA-256 in hex/,
    );
  });
});

describe('a cache that cannot hold the file', () => {
  // The real failure: this context is a fresh, incognito-like one, whose Cache Storage takes at most 256 MiB in
  // one entry (cache.put of the 491 MB Qwen GGUF failed the same way). The file is the tiny model and zeros.
  it('does not fail the load: the model loads from memory, and agent.info and a progress event say why', async () => {
    const url = own(`/models/fault/padded-257/${NAME}`);
    const progress: ModelProgress[] = [];
    const agent = await start({
      model: { engine: 'wllama', url, onProgress: (p) => progress.push(p) },
      dbName: uniqueDb('gguf-not-kept'),
    });
    const texts = progress.map((p) => p.text);
    expect(texts).toContainEqual(
      expect.stringMatching(
        /^tiny-gemma3\.gguf cannot be kept in this browser's cache \(the browser's cache refused it: .*Unexpected internal error.*\): downloading it again, to load it from memory\.$/,
      ),
    );
    expect(agent.info?.model.notice).toMatch(
      /tiny-gemma3\.gguf is not kept in this browser's cache \(the browser's cache refused it: .+; Chromium's private windows hold at most 256 MiB in one entry\): this load holds it in memory, and the next load downloads it again\./,
    );
    expect(await agent.model.isCached()).toBe(false);
    expect(await cachedSize(url)).toBeUndefined();
  }, 120_000);

  it('a full disk (QuotaExceededError) does not fail the load either, and names deleteModelCache', async () => {
    const url = own(`/models/${NAME}`);
    vi.spyOn(Cache.prototype, 'put').mockRejectedValue(
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    );
    const model = engine(url);
    const { error, texts } = await load(model);
    expect(error).toBeUndefined();
    expect(texts).toContainEqual(
      expect.stringMatching(
        /cannot be kept in this browser's cache \(this browser has no room left for it; deleteModelCache\(model\) removes a model's files/,
      ),
    );
    expect(model.info.notice).toMatch(/is not kept in this browser's cache/);
  }, 60_000);
});

describe('a file the page already holds (a blob: URL)', () => {
  // A visitor's own GGUF, chosen from their disk (eval.html offers it). Cache Storage keeps http(s) responses only:
  // before, put() refused the blob: URL and the load failed.
  it('loads from memory, with nothing kept and nothing to say about the cache', async () => {
    const file = new File([await bytesOf(`/models/${NAME}`)], NAME);
    const url = URL.createObjectURL(file);
    try {
      const agent = await start({ model: { engine: 'wllama', url }, dbName: uniqueDb('gguf-blob') });
      expect(agent.status).toBe('ready');
      // Nothing about the cache: the one notice, if any, is the threads' (this test page is not isolated).
      expect(agent.info?.model.notice).toBe(threadsFor().notice);
      expect(await agent.model.isCached()).toBe(false);
    } finally {
      URL.revokeObjectURL(url);
    }
  }, 60_000);
});
