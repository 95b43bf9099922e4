/**
 * A GGUF model's files without an agent (issue 31, item 7b): when createAgent
 * failed there is no agent.model to clear them, so deleteModelCache(model)
 * does it from the page, and the errors that suggest clearing name it.
 */
import { describe, expect, it } from 'vitest';
import { AgentError } from '../../../src/errors';
import { deleteModelCache } from '../../../src/index';
import { GGUF_CACHE } from '../../../src/model/engines/wllama/gguf-cache';
import { withModelFiles } from '../../../src/model/engines/wllama/with-model-files';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';
import { settleWithin } from '../settles';

const NAME = 'tiny-gemma3.gguf';
const start = agentsClosedAfterEach();
/** A URL of this test's own: the server ignores the query, the cache does not. */
const own = (path: string) => `${path}?t=${crypto.randomUUID()}`;
const absolute = (url: string) => new URL(url, location.href).href;

async function cachedSize(url: string): Promise<number | undefined> {
  const response = await (await caches.open(GGUF_CACHE)).match(absolute(url));
  return response ? (await response.blob()).size : undefined;
}

describe('a model’s files without an agent', () => {
  it('deleteModelCache(model) removes the files an agent kept, with the options given to createAgent', async () => {
    const model = { engine: 'wllama', url: own(`/models/${NAME}`) } as const;
    const agent = await start({ model, dbName: uniqueDb('gguf-delete') });
    expect(await agent.model.isCached()).toBe(true);
    await agent.close();
    await deleteModelCache(model);
    expect(await cachedSize(model.url)).toBeUndefined();
  }, 60_000);

  it('deleteModelCache refuses what is not a GGUF model, saying what it takes', async () => {
    await expect(deleteModelCache({ engine: 'webllm', modelId: 'x' } as never)).rejects.toMatchObject({
      code: 'invalid-options',
    });
    await expect(deleteModelCache({} as never)).rejects.toThrow(/deleteModelCache\(model\) takes the model options/);
  });

  it('a load that llama.cpp fails on files from the cache names deleteModelCache', async () => {
    const url = own(`/models/${NAME}`);
    await (await caches.open(GGUF_CACHE)).put(absolute(url), await fetch(`/models/${NAME}`));
    const failing = async () => {
      throw new AgentError('model-failed', 'Loading tiny failed: something llama.cpp said', {
        details: { log: ['something llama.cpp said'] },
      });
    };
    const { error } = await settleWithin(withModelFiles([absolute(url)], {}, failing), 30_000);
    expect(error).toMatchObject({ code: 'model-failed' });
    expect((error as Error).message).toMatch(
      /deleteModelCache\(model\) removes a model's files, with or without an agent/,
    );
  }, 60_000);
});
