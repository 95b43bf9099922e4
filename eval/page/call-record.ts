/** A call as a request of the page suite made it: what the model asked for and how it ended. */
import type { CallOutcome } from './expectation';

export interface CallRecord {
  name: string;
  args: unknown;
  outcome: CallOutcome;
  /** What the tool returned (ran), or the error the model read (any other outcome). */
  result?: unknown;
  error?: string;
  /** The runtime's code for an outcome other than ran (unknown-tool, repeated-call, tool-failed, …). */
  code?: string;
}
