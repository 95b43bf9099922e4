/**
 * Runs one call of a page tool, after RAGFlow's ToolBase.invoke: time it,
 * catch what it throws, and always answer with an outcome. On top of that:
 *
 * - arguments are validated first; invalid ones never reach `execute`;
 * - `timeoutMs` and the run's abort signal end the call at once, even when
 *   `execute` ignores its signal (its promise is left to settle on its own;
 *   ctx.signal tells a well-behaved tool to stop);
 * - the result must survive structured cloning, since it crosses to the
 *   worker; a DOM node or a function becomes a clear error that says where.
 *
 * It never throws and never rejects.
 */
import { AgentError, type AgentErrorData } from '../errors';
import type { Tool, ToolContext } from './define-tool';
import { boundResult, type ResultNotice } from './bounded-result';
import { findUncloneable } from './find-uncloneable';
import { copyPlainData } from './plain-copy';
import { collectToolOutput, type ToolResult } from './tool-result';
import { sameData } from './same-data';
import { validateToolArgs } from './validate-args';

export type ToolOutcome =
  | { ok: true; result: ToolResult; ms: number; notices?: ResultNotice[] }
  /** `artifact`: what the tool returned for the page, kept when only its content failed (see bounded-result.ts). */
  | { ok: false; error: AgentErrorData; ms: number; artifact?: unknown };

export interface InvokeOptions {
  /** The run's signal: aborting it ends the call with 'aborted'. */
  signal?: AbortSignal;
  /** Overrides the tool's own timeoutMs for this call. */
  timeoutMs?: number;
  /** Everything the tool's ctx holds except `signal`, which invokeTool makes. */
  context?: Partial<Omit<ToolContext, 'signal'>>;
  /**
   * The arguments a person approved for this call (the schema's output then).
   * The call runs only if parsing the arguments again gives exactly these.
   */
  approvedArgs?: unknown;
  /** Each streamed chunk, already checked to be cloneable. */
  onChunk?: (chunk: unknown) => void;
  /**
   * A tool that ignored its stop (timeout, abort) may still finish: its late
   * outcome comes here, so that it can be recorded as late and never used.
   */
  onLate?: (outcome: ToolOutcome) => void;
}

/** Thrown inside, to tell our own stops apart from the tool's errors. */
class Stop extends Error {
  constructor(readonly error: AgentError) {
    super(error.message);
  }
}

export async function invokeTool(tool: Tool, rawArgs: unknown, options: InvokeOptions = {}): Promise<ToolOutcome> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const fail = (error: AgentError): ToolOutcome => ({ ok: false, error: error.toJSON(), ms: elapsed() });

  const outer = options.signal;
  if (outer?.aborted) return fail(abortedError(tool));

  const timeoutMs = validTimeout(options.timeoutMs) ?? tool.timeoutMs;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onOuterAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const stop = (error: AgentError) => {
      controller.abort(error);
      reject(new Stop(error));
    };
    onOuterAbort = () => stop(abortedError(tool));
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    timer = setTimeout(() => stop(timeoutError(tool, timeoutMs)), timeoutMs);
  });
  stopped.catch(() => undefined);
  let work: Promise<ToolResult> | undefined;

  try {
    const valid = await Promise.race([validateToolArgs(tool, rawArgs), stopped]);
    if (!valid.ok) return fail(valid.error);
    if (options.approvedArgs !== undefined && !sameData(valid.value, options.approvedArgs)) {
      return fail(notAsApprovedError(tool));
    }

    // What the tool writes with ctx.setState travels with its result, and is checked with it.
    const written: Record<string, unknown> = {};
    const context: ToolContext = {
      sessionId: '',
      invocationId: '',
      callId: '',
      agentName: '',
      state: {},
      ...options.context,
      setState: (delta) => {
        Object.assign(written, delta);
        options.context?.setState?.(delta);
      },
      signal: controller.signal,
    };
    let chunkIndex = 0;
    const onChunk = (chunk: unknown) => {
      const problem = findUncloneable(chunk);
      if (problem)
        throw new Stop(
          notCloneableError(tool, `chunk ${chunkIndex}${problem.path ? `.${problem.path}` : ''}`, problem.what),
        );
      chunkIndex++;
      try {
        const sent: unknown = options.onChunk?.(chunk);
        // A comlink proxy answers with a promise; a lost chunk must not fail the call.
        if (sent instanceof Promise) sent.catch(() => undefined);
      } catch {
        // Streaming is a courtesy to the UI; the final result is what counts.
      }
    };
    work = (async () =>
      collectToolOutput(tool.execute(valid.value, context), { onChunk, signal: controller.signal }))();
    // If a stop wins the race, the tool's late rejection must not go unhandled.
    work.catch(() => undefined);
    const result = withWritten(await Promise.race([work, stopped]), written);
    // A tool that blocked the page's thread past its deadline kept the timer from firing; it still was not in time.
    if (elapsed() > timeoutMs) {
      const error = timeoutError(tool, timeoutMs);
      controller.abort(error);
      options.onLate?.(crossable(tool, result, elapsed));
      return fail(error);
    }
    return crossable(tool, result, elapsed);
  } catch (error) {
    if (error instanceof Stop) {
      if (work && options.onLate) reportLate(tool, work, started, options.onLate);
      return fail(error.error);
    }
    // A tool that honoured its signal and threw because of it: report the stop, not the throw.
    if (controller.signal.aborted && controller.signal.reason instanceof AgentError)
      return fail(controller.signal.reason);
    return fail(
      new AgentError('tool-failed', `Tool "${tool.name}" failed: ${messageOfThrow(error)}`, {
        details: {
          tool: tool.name,
          ...(error instanceof Error && error.name !== 'Error' && { name: error.name }),
          // A tool marks an error fatal when going on makes no sense (e.g. the page left the state the agent works on).
          ...(isFatal(error) && { fatal: true }),
        },
      }),
    );
  } finally {
    clearTimeout(timer);
    if (onOuterAbort) outer?.removeEventListener('abort', onOuterAbort);
  }
}

function isFatal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { fatal?: unknown }).fatal === true;
}

function reportLate(
  tool: Tool,
  work: Promise<ToolResult>,
  started: number,
  onLate: (outcome: ToolOutcome) => void,
): void {
  const elapsed = () => performance.now() - started;
  work.then(
    (result) => onLate(crossable(tool, result, elapsed)),
    (error) =>
      onLate({
        ok: false,
        error: new AgentError('tool-failed', `Tool "${tool.name}" failed late: ${messageOfThrow(error)}`).toJSON(),
        ms: elapsed(),
      }),
  );
}

/** The result as it will arrive in the worker: a structured clone, checked here. */
function crossable(tool: Tool, result: ToolResult, elapsed: () => number): ToolOutcome {
  let copy: ToolResult;
  try {
    copy = structuredClone(result);
  } catch {
    const problem = findUncloneable(result) ?? { path: '', what: 'a value that cannot be copied' };
    return {
      ok: false,
      error: notCloneableError(tool, problem.path || 'the result', problem.what).toJSON(),
      ms: elapsed(),
    };
  }
  // The delta is merged into session state: no key of it may reach a prototype.
  if (copy.stateDelta !== undefined) copy.stateDelta = copyPlainData(copy.stateDelta);
  const bounded = boundResult(tool.name, copy);
  if (!bounded.ok) return { ok: false, error: bounded.error.toJSON(), ms: elapsed(), artifact: bounded.artifact };
  return { ok: true, result: bounded.result, ms: elapsed(), ...(bounded.notices && { notices: bounded.notices }) };
}

function withWritten(result: ToolResult, written: Record<string, unknown>): ToolResult {
  if (Object.keys(written).length === 0) return result;
  return { ...result, stateDelta: { ...written, ...result.stateDelta } };
}

function validTimeout(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(value, 2_147_483_647) : undefined;
}

function abortedError(tool: Tool): AgentError {
  return new AgentError('aborted', `Tool "${tool.name}" was stopped because the run was aborted.`, {
    details: { tool: tool.name },
  });
}

function timeoutError(tool: Tool, timeoutMs: number): AgentError {
  return new AgentError(
    'tool-timeout',
    `Tool "${tool.name}" did not finish within ${timeoutMs} ms (its timeoutMs). If it needs longer, raise timeoutMs in its definition, e.g. defineTool({ ..., timeoutMs: ${Math.max(timeoutMs * 4, 60_000)} }); the call was stopped and ctx.signal aborted.`,
    { details: { tool: tool.name, timeoutMs } },
  );
}

function notAsApprovedError(tool: Tool): AgentError {
  return new AgentError(
    'invalid-arguments',
    `Tool "${tool.name}" was not run: its arguments are not the ones the person approved (a callback changed them, or the tool's schema no longer gives the same result). Ask for approval again.`,
    { details: { tool: tool.name } },
  );
}

function notCloneableError(tool: Tool, where: string, what: string): AgentError {
  return new AgentError(
    'tool-result-not-cloneable',
    `Tool "${tool.name}" returned something that cannot be sent to the worker: ${where} is ${what}. Return plain data instead (strings, numbers, booleans, null, arrays, plain objects, Dates): e.g. an element's text or id rather than the element, a value rather than a function.`,
    { details: { tool: tool.name, path: where, what } },
  );
}

function messageOfThrow(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
