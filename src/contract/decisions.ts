/**
 * The decision layer among createAgent's options (`decisions`), as one zod
 * shape: the page checks it (options-schema.ts spreads it), the worker fills
 * in the defaults without zod (decision-defaults.ts), and the loop reads the
 * output. Each part is the loop's, in src/flow/decisions/; each default is
 * the measured one (docs/evals.md, "The decision layer").
 */
import { z } from '../tools/zod';

const onOff = (what: string) => z.boolean({ error: `must be true or false (${what})` }).optional();

const parts = z.strictObject(
  {
    /** Before a step writes anything, whether a call or words answer the request (the model's own odds, and the tools' fit). */
    callOrAnswer: onOff('decide between a call and words before each step'),
    /** Where several tools are offered, the step names the tool (held to the offered names) before its arguments. */
    toolFirst: onOff('name the tool before its arguments'),
    /** After a round of calls, the step is offered the next call for what the request still asks. */
    moreCalls: onOff('offer another call after results'),
    /** On a page with many tools, each request describes only the tools that fit it: at most this many (true: the default). */
    fitTools: z
      .union([z.boolean(), z.number().int().min(1)], {
        error: 'must be true, false or the most tools a request describes (a whole number of at least 1)',
      })
      .optional(),
    /** A call whose arguments fail its schema, or name values the visitor never gave, is written again once with the reason. */
    retry: onOff('retry a call with bad values once'),
    /** A reply that claims an action no call performed is decided again, or says plainly that nothing was done. */
    claims: onOff('hold replies to the calls that ran'),
  },
  {
    error:
      'must be true, false, or an object of parts: { callOrAnswer, toolFirst, moreCalls, fitTools, retry, claims }',
  },
);

export const decisionsShape = {
  /**
   * The decision layer around each step of a run: true (default) takes every part's measured default, false
   * is the loop without it, an object sets parts (the rest keep their defaults).
   */
  decisions: z
    .union([z.boolean(), parts], {
      error:
        'must be true, false, or an object of parts: { callOrAnswer, toolFirst, moreCalls, fitTools, retry, claims }',
    })
    .optional(),
};
const decisionsSchema = z.object(decisionsShape);

/** The decisions as a page gives them. */
export type DecisionOptions = z.input<typeof decisionsSchema>;
/** Each part as a run takes it: on or off (fitTools: the most tools a request describes, or off). */
export interface Decisions {
  callOrAnswer: boolean;
  toolFirst: boolean;
  moreCalls: boolean;
  fitTools: number | false;
  retry: boolean;
  claims: boolean;
}
