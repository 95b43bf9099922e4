/**
 * The run's limits with their defaults applied, without zod. createAgent checked the values with their
 * schema (limits.ts) before they crossed, so the worker only fills in what is absent, and zod's parser
 * stays out of the worker's bundle (it took 25 KB, gzipped, there). limits.test.ts holds these defaults
 * to the schema's own.
 */
import type { LimitOptions, Limits } from './limits';

const LIMIT_DEFAULTS = { maxSteps: 10, maxToolCallsPerStep: 8, maxRepeatedCalls: 1 } as const;

const LIMIT_KEYS = ['maxSteps', 'maxToolCallsPerStep', 'maxRepeatedCalls', 'maxToolRounds'] as const;

/** The limits among `options`, the defaults for those absent (an older page left maxRepeatedCalls out). */
export function limitsOf(options: LimitOptions): Limits {
  const limits: Limits = { ...LIMIT_DEFAULTS };
  for (const key of LIMIT_KEYS) if (options[key] !== undefined) Object.assign(limits, { [key]: options[key] });
  return limits;
}
