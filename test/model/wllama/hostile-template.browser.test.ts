/**
 * A GGUF's chat template comes with the file, from wherever the file came. A
 * hostile one fails the load at once with model-invalid, in words that name
 * the template, and the file leaves the cache: the fixed file at the same URL
 * loads (src/model/engines/wllama/chat-template.ts, gguf-prompt.ts). One no
 * Jinja engine can parse does not stop the model: its turns are written in the
 * family's markup, and the notice says why.
 *
 * Before the fix llama.cpp read the template at load: the looping one stalled
 * it until the engine gave up (here after stallMs, 30 s; 90 s by default) with
 * model-failed, "llama.cpp has said nothing … Content-Security-Policy … or its
 * WebAssembly file never arrived", and kept the file in the cache, so the fixed
 * file at the same URL did not load either (still stalled after 50 s); the
 * 30 MB one (a comment: llama.cpp skips it fast; issue 49's stalled it 95 s)
 * was taken as it was; the unparseable one failed with model-failed and
 * llama.cpp's parser error ("common_chat_templates_init: error: parser: Parser
 * Error: Expected }} (Got })"; issue 49 saw its advice "--no-jinja
 * --chat-template chatml").
 *
 * The files are the tiny model with Gemma 3's tokenizer with its template
 * replaced (scripts/gguf-faults.mjs: template-looping, template-30mb,
 * template-unparseable).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentError } from '../../../src/errors';
import { createEngine } from '../../../src/model/engines/create-engine';
import type { ModelEngine } from '../../../src/model/engine';
import { GGUF_CACHE } from '../../../src/model/engines/wllama/gguf-cache';
import { settleWithin } from '../settles';

const NAME = 'tiny-gemma3-prose.gguf';
const engines: ModelEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((made) => made.dispose()));
});

/** A URL of this test's own: the server ignores the query, the cache does not. */
const own = (path: string) => `${path}?t=${crypto.randomUUID()}`;

function engine(url: string): ModelEngine {
  const made = createEngine({ engine: 'wllama', url, contextWindow: 1024, stallMs: 30_000 } as never);
  engines.push(made);
  return made;
}

async function loadError(model: ModelEngine): Promise<AgentError | undefined> {
  const { error } = await settleWithin(model.load(), 50_000);
  return error as AgentError | undefined;
}

async function cached(url: string): Promise<boolean> {
  return Boolean(await (await caches.open(GGUF_CACHE)).match(new URL(url, location.href).href));
}

describe('a hostile chat template', () => {
  it.each([
    ['template-looping', /did not finish writing a prompt within 1,000,000 steps/],
    ['template-30mb', /is 31,457,\d{3} bytes long/],
  ])(
    '%s: model-invalid at once, naming the template, and the file is not kept',
    async (shape, says) => {
      const url = own(`/models/fault/${shape}/${NAME}`);
      const error = await loadError(engine(url));
      expect(error).toBeInstanceOf(AgentError);
      expect(error!.code).toBe('model-invalid');
      expect(error!.message).toMatch(/chat template \(tokenizer\.chat_template in its GGUF\)/);
      expect(error!.message).toMatch(says);
      expect(error!.message).not.toMatch(/Content-Security-Policy|said nothing/);
      expect(error!.message).toMatch(/not kept in this browser's cache/);
      expect(await cached(url)).toBe(false);
    },
    60_000,
  );

  it('template-unparseable: the model loads in its family’s markup, and says why in words about the template', async () => {
    const model = engine(own(`/models/fault/template-unparseable/${NAME}`));
    expect(await loadError(model)).toBeUndefined();
    expect(model.info.notice).toMatch(
      /The model's chat template cannot be read: Parser Error: .*[^.]\. Its turns are written in \w+'s markup instead\./,
    );
    expect(model.info.notice).not.toMatch(/--no-jinja|srv init/);
  }, 60_000);

  it('a file refused for its template leaves the cache: once the server has the fixed file, the same URL loads', async () => {
    const url = own(`/models/once/template-looping/${crypto.randomUUID()}/${NAME}`);
    expect((await loadError(engine(url)))?.code).toBe('model-invalid');
    expect(await cached(url)).toBe(false);
    const fixed = engine(url);
    expect(await loadError(fixed)).toBeUndefined();
    expect(fixed.info.notice ?? '').not.toMatch(/chat template/);
    expect(await cached(url)).toBe(true);
  }, 90_000);
});
