/**
 * Reads a model's whole output: the text for the person, the reasoning, the
 * calls to run, and the calls that could not be read (answered to the model
 * so it can correct itself). One left-to-right scan finds every reader's
 * markers (the vocabulary it is given: formats/output-vocabulary.ts) at once, so the work is linear in the output;
 * each reader consumes the markup it owns.
 *
 * Only the model's output comes through here: user text and tool results are
 * escaped before the model reads them (escape.ts) and never parsed.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import type { FinishReason, ModelToolCall } from '../engine';
import type { CallReader, FoundCall, FoundError, ReadContext } from './call-reader';
import { parseLiteral } from './literal';
import { isRecord } from './read-calls';
import type { OutputVocabulary } from './output-vocabulary';
import { codeSpanEnd, PROSE_START, proseAfter, type ProseState } from './prose-state';

export interface ToolCallError {
  id?: string;
  name?: string;
  /** The text the model wrote for the call, as it wrote it. */
  raw: string;
  /** What went wrong and how to write the call instead; the model reads it. */
  message: string;
}

export interface ModelOutput {
  /** The text meant for the person, markup removed. */
  text: string;
  reasoning: string;
  calls: ModelToolCall[];
  errors: ToolCallError[];
}

export interface ReadOptions {
  /** The readers, reasoning blocks and end-of-turn tokens to look for (formats/output-vocabulary.ts). */
  vocabulary: OutputVocabulary;
  /** The tools described to the model. Absent: any name is accepted. */
  tools?: readonly ToolDeclaration[];
  /** Names that may be called in this step. Absent: every tool in `tools`. */
  allowed?: readonly string[];
  /**
   * How the output ended. 'length': it was cut off at the token limit, so none
   * of its calls runs (the turn is incomplete, whatever its calls look like).
   * 'stop' or 'tool-calls': the model ended its turn, so a call whose JSON is
   * complete runs even if its closing tag is missing (formats/hermes.ts).
   */
  finishReason?: FinishReason;
  /**
   * The engine stopped the output because it fell into a loop (repeating-tail.ts), not at the token limit: its
   * calls were written whole, then written again. Each call runs once; what the loop wrote again is dropped.
   */
  looped?: boolean;
  /** Where the prose stood before this output (the stream's text shown already); absent: at its start. */
  prose?: ProseState;
  /** A call written in the model's format, shown to it when its call could not be read. */
  example?: string;
}

/** Text that only separates calls. */
const SEPARATORS = /^[\s,;]+$/;

const DEFAULT_EXAMPLE = '<tool_call>{"name": "<tool name>", "arguments": {<arguments as JSON>}}</tool_call>';

type Handler =
  /** `bare`: matched by a pattern, without a marker of its own (JSON or a pythonic call in the prose). */
  | { kind: 'reader'; reader: CallReader; bare: boolean }
  | { kind: 'reasoning'; close: string }
  | { kind: 'closes-reasoning' }
  | { kind: 'end' };

interface Scanner {
  pattern: RegExp;
  handlers: Handler[];
  /** Literal openers, for the stream's hold-back of a marker split across chunks. */
  literals: string[];
  partials: RegExp[];
}

const scanners = new WeakMap<OutputVocabulary, Map<boolean, Scanner>>();

/**
 * One regular expression with a group per marker; the group that matched says
 * whose it is. `withCloses`: also the closing tags of reasoning, which end a
 * reasoning block the template opened (only the whole output is read for them).
 */
export function markerScanner(vocabulary: OutputVocabulary, withCloses = false): Scanner {
  let cache = scanners.get(vocabulary);
  if (!cache) scanners.set(vocabulary, (cache = new Map()));
  const cached = cache.get(withCloses);
  if (cached) return cached;
  const { readers, reasoning, endOfTurn } = vocabulary;
  const sources: string[] = [];
  const handlers: Handler[] = [];
  const literals: string[] = [];
  const add = (source: string, handler: Handler) => {
    sources.push(`(${source})`);
    handlers.push(handler);
  };
  for (const block of reasoning) {
    add(escapeRegExp(block.open), { kind: 'reasoning', close: block.close });
    literals.push(block.open);
  }
  if (withCloses) for (const block of reasoning) add(escapeRegExp(block.close), { kind: 'closes-reasoning' });
  for (const token of endOfTurn) {
    add(escapeRegExp(token), { kind: 'end' });
    literals.push(token);
  }
  for (const reader of readers) {
    for (const marker of reader.markers ?? []) {
      add(escapeRegExp(marker), { kind: 'reader', reader, bare: false });
      literals.push(marker);
    }
    for (const source of reader.patterns ?? []) add(source, { kind: 'reader', reader, bare: true });
  }
  const partials = readers.flatMap((reader) => (reader.partial ? [reader.partial] : []));
  const scanner = { pattern: new RegExp(sources.join('|'), 'g'), handlers, literals, partials };
  cache.set(withCloses, scanner);
  return scanner;
}

export function matchedHandler(match: RegExpExecArray, scanner: Scanner): Handler {
  const { handlers } = scanner;
  for (let i = 1; i < match.length; i++) if (match[i] !== undefined) return handlers[i - 1];
  throw new Error('unreachable: a marker matched no group');
}

export function readModelOutput(whole: string, options: ReadOptions): ModelOutput {
  // The turn ends at its first end-of-turn token: a reader must see a call left open there as left open.
  const output = untilEndOfTurn(whole, options.vocabulary.endOfTurn);
  const answer = jsonAnswer(output);
  if (answer !== undefined) return { text: answer, reasoning: '', calls: [], errors: [] };
  const context: ReadContext = {
    tools: new Map((options.tools ?? []).map((tool) => [tool.name, tool])),
    finishReason: options.finishReason,
  };
  const scanner = markerScanner(options.vocabulary, true);
  const { pattern } = scanner;
  const found: { calls: FoundCall[]; errors: FoundError[] } = { calls: [], errors: [] };
  let prose = options.prose ?? PROSE_START;
  // Backtick runs found with no closing run after them (so later searches for them are skipped: linear).
  const unclosedRuns = new Set<number>();
  let text = '';
  // Where the text stood when the last call was read: what follows it may be a loop's call begun again.
  let textAtLastCall = -1;
  const addText = (from: number, to: number) => {
    const piece = output.slice(from, to);
    // Commas between calls written as a list without brackets (`{…}, {…}`) say nothing to the person.
    if (textAtLastCall !== -1 && SEPARATORS.test(piece)) return;
    text += piece;
    prose = proseAfter(prose, piece);
  };
  /** Where the inline code span open at `at` closes, if it does. */
  const quoteEnd = (at: number) => {
    if (prose.codeTicks === 0 || unclosedRuns.has(prose.codeTicks)) return -1;
    const close = codeSpanEnd(output, at, prose.codeTicks);
    if (close === -1) unclosedRuns.add(prose.codeTicks);
    return close;
  };
  let reasoning = '';
  let pos = 0;
  const length = output.length;
  // A reasoning block opened in the text, or one closed that the template opened: later closing tags are text.
  let reasoningSeen = false;
  while (pos < length) {
    pattern.lastIndex = pos;
    const match = pattern.exec(output);
    if (!match) {
      addText(pos, length);
      break;
    }
    addText(pos, match.index);
    const handler = matchedHandler(match, scanner);
    if (handler.kind === 'end') break; // the turn ended there; nothing after it is the model's answer
    if (handler.kind === 'closes-reasoning') {
      if (!reasoningSeen) {
        // A template that opens <think> itself (Qwen3's thinking mode) leaves only the closing tag in the
        // output: everything before it, calls included, was reasoning, and none of those calls runs.
        reasoning = output.slice(0, match.index);
        text = '';
        found.calls = [];
        found.errors = [];
        prose = PROSE_START;
      } else addText(match.index, match.index + match[0].length);
      reasoningSeen = true;
      pos = match.index + match[0].length;
      continue;
    }
    if (handler.kind === 'reasoning') {
      reasoningSeen = true;
      const from = match.index + match[0].length;
      const close = output.indexOf(handler.close, from);
      reasoning += output.slice(from, close === -1 ? length : close);
      pos = close === -1 ? length : close + handler.close.length;
      continue;
    }
    // A call quoted in inline code (a model showing the syntax) is text, never run. A marker made of
    // backticks (a fence) is read first: as prose it counts among the backticks that pair up.
    const fence = match[0].startsWith('`');
    const quoted = fence ? -1 : quoteEnd(match.index);
    if (quoted !== -1) {
      addText(match.index, quoted);
      pos = quoted;
      continue;
    }
    const read = handler.reader.read(output, match.index, match[0], context);
    const end = Math.max(read.end, match.index + 1);
    // JSON in a tag the model left broken (`<tool_c fakeout {…}`) is the tag's text: it wrote no call markup.
    if (read.prose || (handler.bare && prose.tagOpen)) {
      addText(match.index, end);
      pos = end;
      continue;
    }
    const quotedFence = fence ? quoteEnd(match.index) : -1;
    if (quotedFence !== -1) {
      addText(match.index, quotedFence);
      pos = quotedFence;
      continue;
    }
    found.calls.push(...(read.calls ?? []));
    found.errors.push(...(read.errors ?? []));
    if (read.calls?.length) textAtLastCall = text.length;
    pos = end;
  }
  if (options.looped && textAtLastCall !== -1) {
    // Stopped in a loop, it was writing a call again: `{"` is no word to the person.
    const tail = text
      .slice(textAtLastCall)
      .replace(/^[\s,;]+/, '')
      .trim();
    if (tail && found.calls.some((call) => call.raw.trimStart().startsWith(tail))) text = text.slice(0, textAtLastCall);
  }
  return { text: text.trim(), reasoning: reasoning.trim(), ...checkCalls(found, options) };
}

/** Names and arguments checked against the step's tools; the schema itself is checked by the loop. */
function checkCalls(
  found: { calls: FoundCall[]; errors: FoundError[] },
  options: ReadOptions,
): Pick<ModelOutput, 'calls' | 'errors'> {
  const example = options.example ?? DEFAULT_EXAMPLE;
  const hint = `Write each call as: ${example}`;
  // Stopped in a loop, the call it was writing again when stopped is cut off: it is one already read.
  const again = (error: FoundError) =>
    options.looped &&
    error.raw.trim() !== '' &&
    found.calls.some((call) => call.raw.trimStart().startsWith(error.raw.trim()));
  const errors: ToolCallError[] = found.errors
    .filter((error) => !again(error))
    .map((error) => ({
      ...(error.name && { name: error.name }),
      raw: clip(error.raw),
      message: `Your tool call could not be read: ${error.why}. ${hint}`,
    }));
  const calls: ModelToolCall[] = [];
  const declared = options.tools?.map((tool) => tool.name);
  const allowed = options.allowed ?? declared;
  const written = new Set<string>();
  for (const call of found.calls) {
    if (options.looped) {
      // The loop's second round of a call is the same call, not another one asked for.
      const key = `${call.name}\u0000${JSON.stringify(call.args)}`;
      if (written.has(key)) continue;
      written.add(key);
    }
    const fail = (message: string) =>
      errors.push({ ...(call.id && { id: call.id }), name: call.name, raw: call.raw, message });
    let args = call.args;
    if (typeof args === 'string') {
      // OpenAI-style arguments are a JSON string.
      const parsed = args.trim() ? parseLiteral(args) : { ok: true as const, value: {}, end: 0 };
      if (!parsed.ok) {
        fail(`The arguments of your call to "${call.name}" are not valid JSON (${parsed.why}). ${hint}`);
        continue;
      }
      args = parsed.value;
    }
    if (args === undefined || args === null) args = {};
    if (!isRecord(args)) {
      fail(`The arguments of your call to "${call.name}" must be a JSON object of named arguments. ${hint}`);
      continue;
    }
    if (declared && !declared.includes(call.name)) {
      fail(unknownToolMessage(call.name, allowed ?? []));
      continue;
    }
    if (allowed && !allowed.includes(call.name)) {
      fail(notAllowedMessage(call.name, allowed));
      continue;
    }
    if (options.finishReason === 'length' && !options.looped) {
      fail(
        `Your answer was cut off at the length limit, so your call to "${call.name}" was not run. Call it again with shorter arguments, or answer in fewer words.`,
      );
      continue;
    }
    calls.push(call.id === undefined ? { name: call.name, args } : { id: call.id, name: call.name, args });
  }
  return { calls, errors };
}

function untilEndOfTurn(output: string, endOfTurn: readonly string[]): string {
  let end = output.length;
  for (const token of endOfTurn) {
    const at = output.indexOf(token);
    if (at !== -1 && at < end) end = at;
  }
  return end === output.length ? output : output.slice(0, end);
}

/** Under the JSON-schema fallback (tool-grammar.ts) an answer is `{"answer": "…"}`. */
function jsonAnswer(output: string): string | undefined {
  const trimmed = output.trim();
  if (!trimmed.startsWith('{"answer"') || !trimmed.endsWith('}')) return undefined;
  try {
    const value = JSON.parse(trimmed) as unknown;
    if (isRecord(value) && typeof value.answer === 'string' && Object.keys(value).length === 1) return value.answer;
  } catch {
    // not the answer form
  }
  return undefined;
}

/** Builds the message the model reads when it named a tool that does not exist. */
export function unknownToolMessage(name: string, toolNames: readonly string[]): string {
  return `There is no tool named "${name}". ${available(toolNames)}`;
}

export function notAllowedMessage(name: string, allowed: readonly string[]): string {
  return `The tool "${name}" may not be called in this step. ${available(allowed)}`;
}

function available(toolNames: readonly string[]): string {
  return toolNames.length
    ? `The tools you can call are: ${toolNames.join(', ')}. Call one of them, or answer in plain text.`
    : 'No tools are available in this step: answer in plain text.';
}

/** An unreadable call is kept for the record; its first few thousand characters say what it was. */
const RAW_KEPT = 4000;
function clip(raw: string): string {
  return raw.length > RAW_KEPT ? `${raw.slice(0, RAW_KEPT)}… (${raw.length - RAW_KEPT} more characters)` : raw;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
