/**
 * What llama.cpp refuses leaves the cache: its loader finds what our checks
 * cannot (a missing tensor, an unknown tensor type), so a copy from the cache
 * it refuses is downloaded again, once, and a fresh one it refuses is not kept.
 */
import { AgentError } from '../../../errors';
import { describe } from './describe-files';
import { CLEAR_HINT, withNote } from './file-errors';
import type { FileOptions } from './file-options';
import { deleteCached } from './gguf-cache';
import { modelFiles, type ModelFiles } from './wllama-files';

/**
 * The model's files handed to `load` (llama.cpp), which finds what only a model's loader can (a missing tensor,
 * an unknown tensor type). Files it refuses (model-invalid) leave the cache; when some came from the cache, they
 * are downloaded again and handed over once more.
 */
export async function withModelFiles<T>(
  urls: readonly string[],
  options: FileOptions,
  load: (files: ModelFiles) => Promise<T>,
): Promise<{ files: ModelFiles; value: T }> {
  const files = await modelFiles(urls, options);
  try {
    return { files, value: await load(files) };
  } catch (error) {
    if (!refused(error)) throw clearHint(error, files);
    await deleteCached(urls);
    if (!files.fromCache) throw withNote(error, notKeptNote(files), urls);
    options.onProgress?.({
      progress: 0,
      text: `llama.cpp could not read the copy of ${describe(urls)} in this browser's cache (${error.message}); it was thrown away. Downloading it again.`,
    });
    const fresh = await modelFiles(urls, { ...options, fresh: true }).catch((again: unknown) => {
      if (!(again instanceof AgentError)) throw again;
      throw withNote(
        again,
        "The copy that was in this browser's cache was refused by llama.cpp and thrown away.",
        urls,
      );
    });
    try {
      return { files: fresh, value: await load(fresh) };
    } catch (again) {
      if (!refused(again)) throw again;
      await deleteCached(urls);
      throw withNote(
        again,
        "The copy that was in this browser's cache was refused first and thrown away; this fresh download was refused too, and was not kept either.",
        urls,
      );
    }
  }
}

/** An error llama.cpp gave because it could not read the files (not for want of memory or a context too large). */
function refused(error: unknown): error is AgentError {
  return error instanceof AgentError && error.code === 'model-invalid';
}

function notKeptNote(files: ModelFiles): string {
  return files.notKept
    ? 'It was held in memory only, as the cache could not keep it.'
    : "It was not kept in this browser's cache: the next load downloads it again.";
}

/**
 * A load that llama.cpp failed on files from the cache, for a reason it did not pin on them (a failure of its
 * own words, not a stall or a policy): the page may want them gone.
 */
function clearHint(error: unknown, files: ModelFiles): unknown {
  if (!files.fromCache || !(error instanceof AgentError) || error.code !== 'model-failed') return error;
  if (!(error.details as { log?: unknown } | undefined)?.log) return error;
  return new AgentError(
    error.code,
    `${error.message}. If the files in this browser's cache are at fault, ${CLEAR_HINT}, and the next load downloads them again.`,
    { cause: error.cause ?? error, details: error.details },
  );
}
