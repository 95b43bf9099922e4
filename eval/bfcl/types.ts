/**
 * BFCL's data as its files hold it (berkeley-function-call-leaderboard/bfcl_eval/data):
 * one JSON object a line, a function doc in BFCL's own type names, and for the
 * categories that have them the accepted values of each argument.
 */
import type { BfclCategory } from './categories';

/** A parameter as BFCL describes it; `type` is one of BFCL's names (type-map.ts), not JSON Schema's. */
export interface BfclParam {
  type?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  /** The element type of an `array` or `tuple`. */
  items?: BfclParam;
  /** The keys of a `dict`. */
  properties?: Record<string, BfclParam>;
  /** On a `dict`: its keys that must be there. */
  required?: string[];
  format?: string;
  [keyword: string]: unknown;
}

export interface BfclFunction {
  /** May hold dots (`math.gcd`); as a tool it is named with underscores (tool-name.ts). */
  name: string;
  description?: string;
  parameters: { type?: string; properties: Record<string, BfclParam>; required?: string[] };
}

export interface BfclMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * One expected call: `{ function name: { parameter: accepted values } }`, one key.
 * An accepted value `""` means the parameter may be left out.
 */
export type ExpectedCall = Record<string, Record<string, unknown[]>>;

export interface BfclCase {
  id: string;
  category: BfclCategory;
  /** The single turn's messages, in order (a system message, earlier turns, then the user's). */
  messages: BfclMessage[];
  functions: BfclFunction[];
  /** The calls a correct answer makes, in any order; absent for the irrelevance and relevance categories. */
  expected?: ExpectedCall[];
}

/** A call as the model made it and our reader read it: the tool's name (underscores) and its arguments. */
export interface ModelCall {
  name: string;
  args: unknown;
}
