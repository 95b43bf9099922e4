/**
 * A reader finds calls in one kind of markup. The scan in read-model-output.ts
 * looks for every reader's markers in one left-to-right pass and hands the
 * markup to the reader that owns the marker; what no reader claims is text.
 *
 * Readers are strict where running the wrong thing is at stake (markup that
 * was cut off is an error, never a call) and forgiving where it is safe
 * (near-JSON, Python literals, a stray newline in a string).
 */
import type { ToolDeclaration } from '../../tools/declaration';
import type { FinishReason } from '../engine';

/** A call as markup spelled it, before its name and arguments are checked against the tools. */
export interface FoundCall {
  name: string;
  args: unknown;
  id?: string;
  raw: string;
}

/** Markup that meant to call a tool but cannot be read; `why` completes "Your tool call could not be read: …". */
export interface FoundError {
  name?: string;
  raw: string;
  why: string;
}

export interface Found {
  /** Where the markup ends (exclusive). */
  end: number;
  calls?: FoundCall[];
  errors?: FoundError[];
  /** The span was not a call after all (prose that mentions a marker): it stays text. */
  prose?: boolean;
}

export interface ReadContext {
  tools: ReadonlyMap<string, ToolDeclaration>;
  /** 'length': the output was cut off at the token limit, so markup open at its end was cut mid-call. */
  finishReason?: FinishReason;
}

export interface CallReader {
  /** Literal strings that open this reader's markup. */
  readonly markers?: readonly string[];
  /** Regular-expression sources for markup without a literal opener (bare JSON or pythonic calls). */
  readonly patterns?: readonly string[];
  /** Matches the end of a text that may be the start of a pattern, so the stream holds it back. */
  readonly partial?: RegExp;
  /** Reads the markup that `marker` (the matched text) opens at `start`. */
  read(text: string, start: number, marker: string, context: ReadContext): Found;
  /**
   * Whether what follows `marker` opens a call, from the first characters
   * only: undefined when it cannot tell yet. The stream releases a marker
   * that turns out to be prose instead of holding everything after it.
   */
  opensCall?(text: string, start: number, marker: string): boolean | undefined;
}

/** How far a reader looks past its marker before it decides that it opens a call. */
export const DECIDE_WITHIN = 48;
