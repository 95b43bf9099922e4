/**
 * The page's `model.sha256`, checked before any download: one hash per file,
 * in the order of `model.url`.
 */
import { AgentError } from '../../../errors';

const SHA256 = /^[0-9a-f]{64}$/i;

/** model.sha256 as one lowercase hash per file, or an invalid-options error that says what is wrong with it. */
export function sha256List(sha256: string | readonly string[] | undefined, files: number): string[] | undefined {
  if (sha256 === undefined) return undefined;
  const list = typeof sha256 === 'string' ? [sha256] : [...sha256];
  if (list.some((hash) => typeof hash !== 'string' || !SHA256.test(hash)))
    throw new AgentError(
      'invalid-options',
      'model.sha256 must be a SHA-256 in hex (64 characters), or one per file of a split model, in the order of model.url.',
    );
  if (list.length !== files)
    throw new AgentError(
      'invalid-options',
      `model.sha256 gives ${list.length} hash${list.length === 1 ? '' : 'es'} for ${files} file${files === 1 ? '' : 's'}: give one per file of model.url, in the same order.`,
    );
  return list.map((hash) => hash.toLowerCase());
}
