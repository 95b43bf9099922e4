/**
 * A GGUF model's files reached without an agent: the way out when createAgent
 * failed (there is no agent.model to ask), or when a page only wants the space
 * back. Cache Storage is one per origin, shared by the page and its workers,
 * so the files the worker kept are removed from here, under the same keys
 * (model/engines/wllama/gguf-cache.ts).
 */
import { AgentError } from '../errors';
import type { WllamaModelOptions } from '../model/engines/wllama/wllama-options';
import { deleteCached } from '../model/engines/wllama/gguf-cache';

/** The model options given to createAgent, or any object with the GGUF's url (a string or a split model's list). */
export type CachedModel = Pick<WllamaModelOptions, 'url'> & { engine?: 'wllama' };

/** Removes a GGUF model's files from this browser's cache; the next load downloads them again. */
export async function deleteModelCache(model: CachedModel): Promise<void> {
  await deleteCached(ggufUrls(model));
}

/** The absolute URLs the files are kept under: relative ones are read against the page, as createAgent reads them. */
function ggufUrls(model: CachedModel): string[] {
  const engine = (model as { engine?: unknown } | undefined)?.engine;
  if (engine !== undefined && engine !== 'wllama')
    throw invalid(
      `it clears the files of engine 'wllama' (a GGUF), not of engine '${String(engine)}'; a web-llm model's files are removed with agent.model.deleteCache()`,
    );
  const url = (model as { url?: unknown } | undefined)?.url;
  const urls = Array.isArray(url) ? url : [url];
  const base = typeof document !== 'undefined' ? document.baseURI : self.location.href;
  if (!urls.length || urls.some((one) => typeof one !== 'string' || !one || !URL.canParse(one, base)))
    throw invalid(`model.url must be the address of a .gguf file, or a split model's list; got ${JSON.stringify(url)}`);
  return (urls as string[]).map((one) => new URL(one, base).href);
}

function invalid(problem: string): AgentError {
  return new AgentError(
    'invalid-options',
    `deleteModelCache(model) takes the model options given to createAgent ({ engine: 'wllama', url }): ${problem}.`,
  );
}
