/**
 * The errors a model's files fail with, shared by the steps that find them:
 * each says what to do next, and whether the file left the cache.
 */
import { AgentError } from '../../../errors';

/** Said wherever a page may want a model's files gone: it needs no agent (page/model-cache-without-agent.ts). */
export const CLEAR_HINT = "deleteModelCache(model) removes a model's files, with or without an agent";

export function notGguf(url: string, why: string): AgentError {
  return new AgentError(
    'model-invalid',
    `${url} is not a GGUF model file: ${why}. Check model.url: it must point at the .gguf file itself (on Hugging Face, a /resolve/main/… address, not the /blob/ page). It was not kept in this browser's cache.`,
    { details: { url } },
  );
}

/** A file that starts like a GGUF and fails a later check. */
export function unusable(url: string, problem: string): AgentError {
  const hint = problem.includes('model.sha256')
    ? 'Check that model.sha256 is the hash of the file at model.url, and that the server holds the file you expect.'
    : 'The file on the server is damaged or was cut short (an upload or a copy that did not finish): replace it, then load again.';
  return new AgentError(
    'model-invalid',
    `${url} is not a usable GGUF model file: ${problem}. ${hint} It was not kept in this browser's cache.`,
    { details: { url } },
  );
}

export function aborted(): AgentError {
  return new AgentError('aborted', 'Loading the model was aborted.');
}

/** The error with a sentence added, and the URLs whose copies left the cache in its details. */
export function withNote(error: AgentError, note: string, urls: readonly string[]): AgentError {
  return new AgentError(error.code, `${error.message} ${note}`, {
    cause: error.cause ?? error,
    details: { ...(error.details as object | undefined), removedFromCache: [...urls] },
  });
}
