/**
 * The run's limits among createAgent's options, as one zod shape: the page
 * checks them with it (options-schema.ts spreads it into createAgent's
 * schema), the worker applies the same defaults without zod
 * (limit-defaults.ts), and the loop's type of them is its output. A new limit is one entry here and its
 * use in the flow.
 */
import { z } from '../tools/zod';

/** A whole number of at least `min`, with the error createAgent gives for one. */
export const wholeAtLeast = (min: number) =>
  z
    .number({ error: `must be a whole number of at least ${min}` })
    .int({ error: `must be a whole number of at least ${min}` })
    .min(min, { error: `must be a whole number of at least ${min}` });

const countOrInfinity = z.union([wholeAtLeast(0), z.literal(Infinity)]);

export const limitsShape = {
  /** Model steps a run makes at most before it ends with 'max-steps'. Default 10. */
  maxSteps: wholeAtLeast(1).default(10),
  /** Calls one model turn may ask for; a turn with more has none run and the model is told. Default 8. */
  maxToolCallsPerStep: wholeAtLeast(1).default(8),
  /**
   * How many calls a run refuses as repeats (the same tool with the same arguments as a call it already
   * answered, with nothing changed since) before it ends with 'repeated-call'. The model is told each
   * time. Default 1; 0 ends the run at the first repeat; Infinity runs repeats.
   */
  maxRepeatedCalls: countOrInfinity.default(1),
  /**
   * Model steps with calls a run makes before a step must answer in words (its grammar allows no call).
   * Default: what the model handles well (agent.info.model.toolRounds: 1 for a GGUF under two billion
   * parameters), else no limit but maxSteps.
   */
  maxToolRounds: countOrInfinity.optional(),
};
const limitsSchema = z.object(limitsShape);

/** The limits as a page gives them: each optional. */
export type LimitOptions = z.input<typeof limitsSchema>;
/** The limits as a run keeps them: defaults applied; maxToolRounds absent means the model's own. */
export type Limits = z.output<typeof limitsSchema>;
