/**
 * What a tool's `execute` may give back, and the one shape the loop records.
 *
 * - A plain value: it is the `content` the model sees.
 * - A ToolResult `{ content, artifact?, stateDelta?, finalAnswer? }` (after
 *   LangChain's content-and-artifact and Neurosurfer's ToolResponse): the
 *   model sees `content`; the page and the event log also keep `artifact`;
 *   `stateDelta` is applied to the session state with the response event;
 *   `finalAnswer: true` ends the run with this output as the answer.
 *   An object counts as a ToolResult when it has a `content` key and no key
 *   besides those four (with the right types). So `{ content: 'x' }` is a
 *   ToolResult, and `{ content: 'x', author: 'y' }` is a plain value.
 * - A promise of either.
 * - A stream: an async iterable (or a sync generator), or a ToolResult whose
 *   `content` is one. Each chunk goes to `onChunk` as it arrives. The final
 *   content is decided in this order:
 *     1. the generator's `return` value, when it returns something;
 *     2. otherwise, when every chunk was a string, their concatenation;
 *     3. otherwise the last chunk (null when there was none).
 *   A final value that is itself a ToolResult is taken as the result.
 * `undefined` content becomes `null`, so the model always reads JSON.
 */
import { isPlainObject } from './plain-copy';

export interface ToolResult {
  content: unknown;
  artifact?: unknown;
  stateDelta?: Record<string, unknown>;
  finalAnswer?: boolean;
}

const RESULT_KEYS = new Set(['content', 'artifact', 'stateDelta', 'finalAnswer']);

export function isToolResult(value: unknown): value is ToolResult {
  if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, 'content')) return false;
  for (const key of Object.keys(value)) if (!RESULT_KEYS.has(key)) return false;
  if (value.stateDelta !== undefined && !isPlainObject(value.stateDelta)) return false;
  if (value.finalAnswer !== undefined && typeof value.finalAnswer !== 'boolean') return false;
  return true;
}

type ToolStream = AsyncIterable<unknown> | Iterator<unknown>;

/** Async iterables and sync generators stream; strings, arrays, Maps and Sets are values. */
function isToolStream(value: unknown): value is ToolStream {
  if (value === null || typeof value !== 'object') return false;
  if (Symbol.asyncIterator in value) return true;
  return Object.prototype.toString.call(value) === '[object Generator]';
}

export interface CollectOptions {
  /** Called with each chunk as it arrives; a throw stops the stream and rejects. */
  onChunk?: (chunk: unknown) => void;
  /** Checked between chunks: on abort the stream is closed (its `return()` runs). */
  signal?: AbortSignal;
}

/** Awaits and normalises execute's output into a ToolResult. */
export async function collectToolOutput(output: unknown, options: CollectOptions = {}): Promise<ToolResult> {
  const settled = await output;
  if (isToolStream(settled)) return fromFinal(await consumeStream(settled, options));
  if (isToolResult(settled)) {
    if (isToolStream(settled.content)) {
      const final = await consumeStream(settled.content, options);
      return { ...settled, content: isToolResult(final) ? final.content : (final ?? null) };
    }
    return { ...settled, content: settled.content ?? null };
  }
  return { content: settled ?? null };
}

function fromFinal(final: unknown): ToolResult {
  if (isToolResult(final)) return { ...final, content: final.content ?? null };
  return { content: final ?? null };
}

/**
 * A stream whose chunks are all ready (an async generator that never awaits)
 * would run as one long chain of microtasks: no timer could fire, so neither
 * its timeout nor a stop from the worker could end it, and the page would
 * freeze. The loop gives the page a turn whenever it has run this long.
 */
const TURN_MS = 8;

/** A timer, not scheduler.yield(): its continuation would run ahead of a due timeout, which must fire. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function consumeStream(stream: ToolStream, options: CollectOptions): Promise<unknown> {
  const iterator: AsyncIterator<unknown> | Iterator<unknown> =
    Symbol.asyncIterator in stream
      ? (stream as AsyncIterable<unknown>)[Symbol.asyncIterator]()
      : (stream as Iterator<unknown>);
  let text = '';
  let allStrings = true;
  let last: unknown = null;
  let count = 0;
  let finished = false;
  let turnStarted = performance.now();
  try {
    for (;;) {
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
      options.signal?.throwIfAborted();
      const step = await iterator.next();
      options.signal?.throwIfAborted();
      if (step.done) {
        finished = true;
        if (step.value !== undefined) return step.value;
        break;
      }
      const chunk = step.value;
      count++;
      if (typeof chunk === 'string') text += chunk;
      else allStrings = false;
      last = chunk;
      options.onChunk?.(chunk);
    }
  } finally {
    // Stopped early (abort, a bad chunk): let the generator run its own finally blocks.
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
  return count > 0 && allStrings ? text : last;
}
