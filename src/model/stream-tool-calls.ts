/**
 * Streams a model's output as it is decoded: text and reasoning flow to the
 * person at once; from a marker that may open a call (or end the turn) on,
 * the output is held back and read when the model stops. A marker split
 * across chunks (`<tool` … `_call>`) is held until it is clear whether it is
 * one, and a marker that turns out to be prose ("functools is a module") is
 * released. Each chunk is looked at once, so the work is linear in the output.
 */
import type { FinishReason } from './engine';
import { DECIDE_WITHIN } from './formats/call-reader';
import {
  markerScanner,
  matchedHandler,
  readModelOutput,
  type ModelOutput,
  type ReadOptions,
} from './read-model-output';

export type StreamPiece = { type: 'text'; text: string } | { type: 'reasoning'; text: string };

export interface StreamOptions extends ReadOptions {
  /** Hold the whole output (an answer under the JSON-schema fallback is one JSON value). */
  holdAll?: boolean;
}

export class ToolCallStream {
  private output = '';
  private shown = 0;
  private mode: 'text' | 'reasoning' | 'held';
  private reasoningClose = '';
  /** Something other than whitespace has been shown as text. */
  private textShown = false;

  constructor(private readonly options: StreamOptions = {}) {
    this.mode = options.holdAll ? 'held' : 'text';
  }

  /** Adds decoded text; returns what can be shown now. */
  push(chunk: string): StreamPiece[] {
    this.output += chunk;
    const pieces: StreamPiece[] = [];
    while (this.mode !== 'held') {
      if (this.mode === 'reasoning' ? !this.stepReasoning(pieces) : !this.stepText(pieces)) break;
    }
    return pieces;
  }

  /** The model stopped: reads what was held back. `text` and `reasoning` are only the parts not shown yet. */
  end(finishReason?: FinishReason): ModelOutput {
    const rest = this.output.slice(this.shown);
    this.shown = this.output.length;
    if (this.mode === 'reasoning') return { text: '', reasoning: rest, calls: [], errors: [] };
    if (this.mode === 'text') return { text: rest, reasoning: '', calls: [], errors: [] };
    const read = readModelOutput(rest, { ...this.options, finishReason });
    if (read.text && this.textShown && !/\s$/.test(this.output.slice(0, this.output.length - rest.length)))
      read.text = `\n${read.text}`;
    return read;
  }

  /** Everything the model wrote, markup included. */
  get raw(): string {
    return this.output;
  }

  /** Shows text up to the next marker; false when it must wait for more output. */
  private stepText(pieces: StreamPiece[]): boolean {
    const { pattern } = markerScanner();
    pattern.lastIndex = this.shown;
    const match = pattern.exec(this.output);
    if (!match) {
      this.show(pieces, this.output.length - this.heldTail(), 'text');
      return false;
    }
    this.show(pieces, match.index, 'text');
    const handler = matchedHandler(match);
    if (handler.kind === 'reasoning') {
      this.shown = match.index + match[0].length;
      this.mode = 'reasoning';
      this.reasoningClose = handler.close;
      return true;
    }
    if (handler.kind === 'reader' && handler.reader.opensCall) {
      const opens = handler.reader.opensCall(this.output, match.index, match[0]);
      if (opens === false) {
        this.show(pieces, match.index + match[0].length, 'text');
        return true;
      }
      if (opens === undefined && this.output.length - match.index < match[0].length + DECIDE_WITHIN) return false;
    }
    this.mode = 'held';
    return false;
  }

  private stepReasoning(pieces: StreamPiece[]): boolean {
    const close = this.output.indexOf(this.reasoningClose, this.shown);
    if (close === -1) {
      this.show(
        pieces,
        this.output.length - partialLength(this.output, this.shown, [this.reasoningClose]),
        'reasoning',
      );
      return false;
    }
    this.show(pieces, close, 'reasoning');
    this.shown = close + this.reasoningClose.length;
    this.mode = 'text';
    return true;
  }

  private show(pieces: StreamPiece[], to: number, type: StreamPiece['type']): void {
    if (to <= this.shown) return;
    const text = this.output.slice(this.shown, to);
    this.shown = to;
    if (type === 'text' && !this.textShown && text.trim()) this.textShown = true;
    const last = pieces.at(-1);
    if (last?.type === type) last.text += text;
    else pieces.push({ type, text });
  }

  /** How much of the end of the output may begin a marker, and must wait for the next chunk. */
  private heldTail(): number {
    const { literals, partials } = markerScanner();
    let longest = partialLength(this.output, this.shown, literals);
    const tailStart = Math.max(this.shown, this.output.length - 64);
    const tail = this.output.slice(tailStart);
    for (const partial of partials) {
      const match = partial.exec(tail);
      if (match) longest = Math.max(longest, tail.length - match.index);
    }
    return longest;
  }
}

/** Length of the longest suffix of output[from..] that is a proper prefix of one of `markers`. */
function partialLength(output: string, from: number, markers: readonly string[]): number {
  let longest = 0;
  const available = output.length - from;
  for (const marker of markers) {
    for (let n = Math.min(marker.length - 1, available); n > longest; n--) {
      if (output.endsWith(marker.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}
