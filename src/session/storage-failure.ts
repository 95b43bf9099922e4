/**
 * The codes of a storage that failed (not of bad input): closed, unavailable,
 * blocked by another tab, full. What a run could not store is handed back
 * with such an error, and a run that ends on one still says so in its stream.
 */
import { AgentError, type AgentErrorCode } from '../errors';

const STORAGE_FAILURES: ReadonlySet<AgentErrorCode> = new Set([
  'storage-closed',
  'storage-unavailable',
  'storage-blocked',
  'quota-exceeded',
]);

export function isStorageFailure(error: unknown): error is AgentError {
  return error instanceof AgentError && STORAGE_FAILURES.has(error.code);
}
