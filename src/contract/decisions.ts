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
    /**
     * Where a step is held to a call among several tools, it is offered only those the request's words point to.
     * Off by default (docs/evals.md).
     */
    toolsThatFit: onOff("offer a call only the tools the request's words point to"),
    /**
     * A request that gives a value in the format only some tools take (an email address) and asks no question is
     * held to a call of those tools. Off by default (docs/evals.md).
     */
    givenValues: onOff('hold a request that gives a value only some tools take to a call of them'),
    /** While the request holds values no call of the turn took ("milk, eggs and bread"), the turn goes on with another call. */
    moreCalls: onOff('go on with another call while the request holds values no call took'),
    /** A call whose arguments fail its schema, or name values the visitor never gave, is written again once with the reason. */
    retry: onOff('retry a call with bad values once'),
    /** A reply that claims an action no call performed is decided again, or says plainly that nothing was done. */
    claims: onOff('hold replies to the calls that ran'),
  },
  {
    error:
      'must be true, false, or an object of parts: { callOrAnswer, toolsThatFit, givenValues, moreCalls, retry, claims }',
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
        'must be true, false, or an object of parts: { callOrAnswer, toolsThatFit, givenValues, moreCalls, retry, claims }',
    })
    .optional(),
};
const decisionsSchema = z.object(decisionsShape);

/** The decisions as a page gives them. */
export type DecisionOptions = z.input<typeof decisionsSchema>;
/** Each part as a run takes it: on or off. */
export interface Decisions {
  callOrAnswer: boolean;
  toolsThatFit: boolean;
  givenValues: boolean;
  moreCalls: boolean;
  retry: boolean;
  claims: boolean;
}
