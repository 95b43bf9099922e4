/** One line of a page-suite run's results file: a request of a conversation, an arm, what happened, the verdict. */
import type { ArmName } from '../arms/arm';
import type { CallRecord } from './call-record';
import type { RequestKind } from './expectation';
import type { RequestCounts } from './judge-request';
import type { PageState } from './page-state';
import type { StepDecision } from '../../src/session/event';

export interface PageResult extends Omit<RequestCounts, 'unbackedClaims'> {
  suite: 'page';
  /** `<conversation>/<n>`, n from 1. */
  id: string;
  conversation: string;
  /** What the visitor typed. */
  request: string;
  kinds: RequestKind[];
  arm: ArmName;
  /** The model as tables name it. */
  model: string;
  calls: CallRecord[];
  /** Everything the model said in the request, each step's words on a line. */
  reply: string;
  /** `error`: the run failed before the model answered (see why). */
  verdict: 'correct' | 'wrong' | 'error';
  why: string[];
  /** The reply's claims that no call of the request backs. */
  unbackedClaims: { phrase: string; verb: string }[];
  /** The approvals the page asked for, and the visitor's answer. */
  approvals: { name: string; granted: boolean }[];
  endReason?: string;
  error?: string;
  /** The page after the request. */
  page?: PageState;
  promptTokens: number;
  /** Of them, read from scratch (not in the engine's cache; absent in lines written before it was counted). */
  prefilledTokens?: number;
  completionTokens: number;
  /** Model steps the request took (recorded ones). */
  steps: number;
  /** What the decision layer decided before the request's steps (absent in lines written before it). */
  decisions?: StepDecision[];
  /** Replies the runtime replaced by "nothing was done", with what they claimed. */
  replacedClaims?: string[];
  /** The request, from the message sent to the run's end. */
  seconds: number;
  /** Starting the arm's agent (worker, model load), on its first request only. */
  startSeconds: number;
}
