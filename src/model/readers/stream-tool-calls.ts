/**
 * Streams a model's output as it is decoded: text and reasoning flow to the
 * person at once; from a marker that may open a call (or end the turn) on,
 * the output is held back and read when the model stops. A marker split
 * across chunks (`<tool` … `_call>`) is held until it is clear whether it is
 * one, and a marker that turns out to be prose ("functools is a module") is
 * released.
 *
 * Once held output names one of the step's tools as a call does, the stream
 * says so (a `tool-call-start` piece, call-starts.ts): a page can show the
 * call being written. The call itself is still read only at the end.
 *
 * Linear in the output: each chunk is scanned once, together with the few
 * characters kept back from the previous one. The whole output is never
 * scanned again while it grows (appending to a long string and searching it
 * makes the engine copy it every time).
 */
import type { FinishReason } from '../engine';
import { DECIDE_WITHIN } from './call-reader';
import { CallStarts } from './call-starts';
import type { OutputVocabulary } from './output-vocabulary';
import {
  markerScanner,
  matchedHandler,
  readModelOutput,
  type ModelOutput,
  type ReadOptions,
} from './read-model-output';
import { PROSE_START, proseAfter, type ProseState } from './prose-state';

export type StreamPiece =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  /** The model began writing a call to this tool (ModelDelta 'tool-call-start'). */
  | { type: 'tool-call-start'; name: string };

export interface StreamOptions extends ReadOptions {
  /** Hold the whole output (an answer under the JSON-schema fallback is one JSON value). */
  holdAll?: boolean;
}

/** How much of the end of a chunk is looked at for the start of a pattern marker (bare JSON, pythonic). */
const TAIL = 64;

export class ToolCallStream {
  private readonly chunks: string[] = [];
  /** Output not shown yet, while showing (text or reasoning mode); small. */
  private pending = '';
  /** Output from the first held marker on. */
  private readonly held: string[] = [];
  private mode: 'text' | 'reasoning' | 'held';
  private reasoningClose = '';
  /** Some text other than whitespace has been shown, and whether it ended in whitespace. */
  private textShown = false;
  private shownEndsInSpace = true;
  /** Where the shown text leaves the prose (in inline code, in a broken tag): the held markup is read from there. */
  private prose: ProseState = PROSE_START;
  /** Finds where the held output starts a call to one of the step's tools. */
  private readonly starts: CallStarts;

  constructor(private readonly options: StreamOptions) {
    this.mode = options.holdAll ? 'held' : 'text';
    this.starts = new CallStarts(options.allowed ?? options.tools?.map((tool) => tool.name) ?? []);
  }

  /** Adds decoded text; returns what can be shown now. */
  push(chunk: string): StreamPiece[] {
    this.chunks.push(chunk);
    if (this.mode === 'held') {
      this.held.push(chunk);
      return this.callStarts(chunk);
    }
    this.pending += chunk;
    const pieces: StreamPiece[] = [];
    while (this.step(pieces));
    return pieces;
  }

  /** The calls that `heldChunk`, newly held, starts. */
  private callStarts(heldChunk: string): StreamPiece[] {
    return this.starts.push(heldChunk).map((name) => ({ type: 'tool-call-start', name }));
  }

  /**
   * The model stopped: reads what was held back. `text` and `reasoning` are only the parts not shown yet.
   * `looped`: the engine stopped it in a loop (ReadOptions.looped).
   */
  end(finishReason?: FinishReason, looped = false): ModelOutput {
    if (this.mode === 'reasoning') return { text: '', reasoning: this.take(), calls: [], errors: [] };
    if (this.mode === 'text') return { text: this.take(), reasoning: '', calls: [], errors: [] };
    const held = this.held.splice(0).join('');
    const read = readModelOutput(held, { ...this.options, finishReason, looped, prose: this.prose });
    // Text that followed a call starts on its own line; prose that only looked like a marker joins what was shown.
    if (read.text && this.textShown && !this.shownEndsInSpace && !held.startsWith(read.text))
      read.text = `\n${read.text}`;
    return read;
  }

  /** Everything the model wrote, markup included. */
  get raw(): string {
    return this.chunks.join('');
  }

  private take(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }

  /** One step of showing; false when the output must wait for more (or is held to the end). */
  private step(pieces: StreamPiece[]): boolean {
    if (this.mode === 'held') return false;
    return this.mode === 'reasoning' ? this.stepReasoning(pieces) : this.stepText(pieces);
  }

  /** Shows text up to the next marker; false when it must wait for more output. */
  private stepText(pieces: StreamPiece[]): boolean {
    const scanner = markerScanner(this.options.vocabulary);
    const { pattern } = scanner;
    pattern.lastIndex = 0;
    const text = this.pending;
    const match = pattern.exec(text);
    if (!match) {
      this.show(pieces, text.length - heldTail(text, this.options.vocabulary), 'text');
      return false;
    }
    this.show(pieces, match.index, 'text');
    const marker = match[0];
    const handler = matchedHandler(match, scanner);
    if (handler.kind === 'reasoning') {
      this.pending = this.pending.slice(marker.length);
      this.mode = 'reasoning';
      this.reasoningClose = handler.close;
      return true;
    }
    if (handler.kind === 'reader' && handler.reader.opensCall) {
      const opens = handler.reader.opensCall(this.pending, 0, marker);
      if (opens === false) {
        this.show(pieces, marker.length, 'text');
        return true;
      }
      if (opens === undefined && this.pending.length < marker.length + DECIDE_WITHIN) return false;
    }
    this.mode = 'held';
    const held = this.take();
    this.held.push(held);
    pieces.push(...this.callStarts(held));
    return false;
  }

  private stepReasoning(pieces: StreamPiece[]): boolean {
    const close = this.pending.indexOf(this.reasoningClose);
    if (close === -1) {
      this.show(pieces, this.pending.length - partialLength(this.pending, [this.reasoningClose]), 'reasoning');
      return false;
    }
    this.show(pieces, close, 'reasoning');
    this.pending = this.pending.slice(this.reasoningClose.length);
    this.mode = 'text';
    return true;
  }

  /** Shows pending[0..to) and drops it from pending. */
  private show(pieces: StreamPiece[], to: number, type: 'text' | 'reasoning'): void {
    if (to <= 0) return;
    const text = this.pending.slice(0, to);
    this.pending = this.pending.slice(to);
    if (type === 'text') {
      if (!this.textShown && text.trim()) this.textShown = true;
      this.shownEndsInSpace = /\s$/.test(text);
      this.prose = proseAfter(this.prose, text);
    }
    const last = pieces.at(-1);
    if (last?.type === type && 'text' in last) last.text += text;
    else pieces.push({ type, text });
  }
}

/** How much of the end of `text` may begin a marker, and must wait for the next chunk. */
function heldTail(text: string, vocabulary: OutputVocabulary): number {
  const { literals, partials } = markerScanner(vocabulary);
  let longest = partialLength(text, literals);
  const tail = text.length > TAIL ? text.slice(text.length - TAIL) : text;
  for (const partial of partials) {
    const match = partial.exec(tail);
    if (match) longest = Math.max(longest, tail.length - match.index);
  }
  return longest;
}

/** Length of the longest suffix of `text` that is a proper prefix of one of `markers`. */
function partialLength(text: string, markers: readonly string[]): number {
  const longestMarker = markers.reduce((max, marker) => Math.max(max, marker.length), 0);
  for (let i = Math.max(0, text.length - longestMarker + 1); i < text.length; i++) {
    if (!markers.some((marker) => marker.charCodeAt(0) === text.charCodeAt(i))) continue;
    const suffix = text.slice(i);
    if (markers.some((marker) => marker.length > suffix.length && marker.startsWith(suffix))) return text.length - i;
  }
  return 0;
}
