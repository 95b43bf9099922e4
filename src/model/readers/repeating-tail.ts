/**
 * Tells when a model's output has fallen into a loop: its last characters
 * are one piece written again and again ("bread, eggs, milk, bread, eggs,
 * milk, …"). Greedy decoding of a small model does this, and then only the
 * token limit ends it: Qwen2.5-Coder 0.5B wrote an add_todo text of 1,078
 * tokens that way, six minutes on a CPU, for a call that was refused.
 *
 * A loop is a piece of at most MAX_PERIOD characters, repeated at least
 * MIN_REPEATS times, over at least MIN_SPAN characters: a list of numbers or
 * a row of dashes a person asked for is shorter than that. A piece longer
 * than SHORT_PERIOD is a loop once written twice in a row: no answer writes
 * the same 129 characters again at once, and a turn of calls that cycles
 * (the 0.5B wrote six sorts, over and over, 37 calls until its token limit)
 * is stopped after its second round, not its fourth.
 *
 * Linear: for each period it keeps how many characters in a row have
 * matched the one a period before, so each character costs MAX_PERIOD
 * comparisons, however long the output grows.
 */

import type { ModelDelta } from '../engine';

const MAX_PERIOD = 1024;
const SHORT_PERIOD = 128;
const MIN_REPEATS = 4;
const MIN_SPAN = 160;

export class RepeatingTail {
  /** The last MAX_PERIOD characters, as a ring. */
  private readonly recent: string[] = new Array<string>(MAX_PERIOD);
  /** For each period p, how many characters in a row have equalled the one p before. */
  private readonly matched = new Uint32Array(MAX_PERIOD + 1);
  private seen = 0;
  private found?: string;

  /** Reads more of the output; true once the output so far ends in a loop. */
  push(text: string): boolean {
    if (this.found !== undefined) return true;
    for (const char of text) {
      // One pass over the periods: each one's run of matches, and the shortest whose repeats now make a loop.
      let loop: number | undefined;
      for (let period = 1; period <= MAX_PERIOD; period++) {
        const same = this.seen >= period && this.recent[(this.seen - period) % MAX_PERIOD] === char;
        const matched = (this.matched[period] = same ? this.matched[period]! + 1 : 0);
        if (loop === undefined && isLoop(period, matched + period)) loop = period;
      }
      this.recent[this.seen % MAX_PERIOD] = char;
      this.seen++;
      if (loop !== undefined) {
        this.found = this.lastChars(loop);
        return true;
      }
    }
    return false;
  }

  /** The piece the output repeats, once push has said it loops. */
  get piece(): string | undefined {
    return this.found;
  }

  private lastChars(count: number): string {
    let piece = '';
    for (let back = count; back >= 1; back--) piece += this.recent[(this.seen - back) % MAX_PERIOD];
    return piece;
  }
}

/** What a step an engine stopped in a loop says (`length`: the characters written). */
export function loopNotice(piece: string, length: number): ModelDelta {
  return {
    type: 'notice',
    code: 'repeating-output',
    message: `The model wrote ${JSON.stringify(piece)} over and over, so it was stopped after ${length} characters, as at its token limit.`,
  };
}

/** Whether `span` characters that repeat a piece of `period` characters are a loop. */
function isLoop(period: number, span: number): boolean {
  const repeats = period > SHORT_PERIOD ? 2 : MIN_REPEATS;
  return span >= MIN_SPAN && span >= repeats * period;
}
