/** One line of a run's results file: a case, an arm, what the model did and what the judge said. */
import type { ArmName } from '../arms/arm';
import type { BfclCategory } from '../bfcl/categories';
import type { ModelCall } from '../bfcl/types';
import type { Expected } from '../mechanics/script';

export interface CaseResult {
  id: string;
  category: BfclCategory;
  arm: ArmName;
  /** The model as tables name it. */
  model: string;
  /** The calls as read from the model's output (what the judge saw). */
  calls: ModelCall[];
  /** Calls tried, readable or not. */
  attempts: number;
  /** Calls tried that could not be read. */
  unreadable: number;
  /** Calls that were readable and valid under their tool's schema (they ran). */
  valid: number;
  /** `error`: the run failed before the model answered (see why). */
  verdict: 'correct' | 'wrong' | 'invalid' | 'error';
  /** BFCL's error type, when not correct. */
  rule?: string;
  why?: string;
  promptTokens?: number;
  completionTokens?: number;
  /** The model step (prefill and decode). */
  seconds: number;
  /** Starting the agent for the case (worker, session, model load). */
  startSeconds: number;
  /** The model's output as generated. */
  raw?: string;
  /** Mechanics check only: what the scripted answer meant the judge to say, and what was done to it. */
  expected?: Expected & { kind: string };
}
