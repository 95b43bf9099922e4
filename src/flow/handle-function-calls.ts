/**
 * The function calls of one model turn, after ADK's handleFunctionCalls:
 * each is validated, passes the approval gate and the before-tool callbacks,
 * runs with its timeout and the run's abort signal, passes the after-tool
 * callbacks, and all responses are recorded as one merged event.
 */
import { AgentError, messageOf, type AgentErrorData } from '../errors';
import type { AgentEvent, EndReason, FunctionCall, FunctionResponse } from '../session/event';
import type { ToolDeclaration } from '../tools/declaration';
import { validateWithJsonSchema } from '../tools/validate-args';
import { raceAbort } from './abortable';
import { ESCALATE_TOOL, TRANSFER_TOOL } from './agents';
import { decisionFor, isApprovalNeeded } from './approval';
import { runCallback } from './call-model';
import { emitPartial, record } from './record';
import type { Invocation } from './types';

export type CallsOutcome = { kind: 'continue' } | { kind: 'end'; reason: EndReason };

interface Answer {
  response: FunctionResponse;
  ms: number;
  artifact?: unknown;
  stateDelta?: Record<string, unknown>;
  transferTo?: string;
  escalate?: boolean;
  final?: boolean;
  longRunning?: boolean;
  /** The tool said going on makes no sense: the run ends after recording the answers. */
  fatal?: AgentErrorData;
}

/** Worker-side slack over a tool's own timeout, for a page that never answers. */
const PAGE_SLACK_MS = 2000;

/**
 * `unreadable` holds calls the model tried to make but that could not be read
 * (by call id, the message the model gets back so it can correct itself).
 */
export async function handleFunctionCalls(
  inv: Invocation,
  agentName: string,
  calls: FunctionCall[],
  unreadable: ReadonlyMap<string, string> = new Map(),
): Promise<CallsOutcome> {
  const startedAt = Date.now();
  const t0 = performance.now();

  if (calls.length > inv.limits.maxToolCallsPerStep) {
    const message = `Not run: the model asked for ${calls.length} tool calls in one step and the limit is ${inv.limits.maxToolCallsPerStep} (createAgent({ maxToolCallsPerStep })).`;
    await record(inv, {
      author: agentName,
      content: {
        role: 'tool',
        parts: calls.map((call) => ({
          functionResponse: { id: call.id, name: call.name, response: null, error: message },
        })),
      },
      error: { code: 'max-tool-calls', message },
      endReason: 'max-tool-calls',
      timing: { startedAt, ms: performance.now() - t0 },
    });
    return { kind: 'end', reason: 'max-tool-calls' };
  }

  // The approval gate. Without an onApproval on the page, the run pauses here and
  // the request is in the log, so agent.approve() works after a reload too.
  const waiting: FunctionCall[] = [];
  for (const call of calls) {
    if (unreadable.has(call.id) || !(await isApprovalNeeded(inv.tools.get(call.name), call, inv.hooks))) continue;
    if (decisionFor(inv.history, call.id)) continue;
    if (inv.hooks.approve) {
      const granted = await runCallback(
        inv,
        () => inv.hooks.approve!({ callId: call.id, name: call.name, args: call.args }),
        'onApproval',
      );
      await record(inv, { author: 'user', actions: { approval: { callId: call.id, granted: granted === true } } });
    } else waiting.push(call);
  }
  if (waiting.length) {
    await record(inv, {
      author: agentName,
      actions: { requestApproval: waiting.map((call) => ({ callId: call.id, name: call.name, args: call.args })) },
      endReason: 'awaiting-approval',
    });
    return { kind: 'end', reason: 'awaiting-approval' };
  }

  const allReadOnly = calls.every((call) => inv.tools.get(call.name)?.annotations.readOnly || isBuiltin(call.name));
  const pending = calls.map((call) => answer(inv, agentName, call, unreadable.get(call.id)));
  let answers: Answer[];
  try {
    answers = allReadOnly
      ? await raceAbort(Promise.all(pending.map((p) => p.start())), inv.signal)
      : await inSequence(inv, pending);
  } catch (error) {
    if (!inv.signal.aborted) throw error;
    return recordAborted(inv, agentName, calls, pending, startedAt, t0);
  }

  const parts = answers.map((a) => ({ functionResponse: a.response }));
  const stateDelta = Object.assign({}, ...answers.map((a) => a.stateDelta ?? {})) as Record<string, unknown>;
  const artifacts = Object.fromEntries(
    answers.filter((a) => a.artifact !== undefined).map((a) => [a.response.id, a.artifact]),
  );
  const transfer = answers.find((a) => a.transferTo);
  const longRunning = answers.filter((a) => a.longRunning).map((a) => a.response.id);
  const final = answers.some((a) => a.final);
  const fatal = answers.find((a) => a.fatal)?.fatal;
  const endReason: EndReason | undefined = fatal ? 'error' : final ? 'return-direct' : undefined;

  const answered = answers.filter((a) => !a.longRunning);
  if (answered.length) {
    await record(inv, {
      author: agentName,
      content: { role: 'tool', parts: answered.map((a) => ({ functionResponse: a.response })) },
      actions: compact({
        stateDelta: Object.keys(stateDelta).length ? stateDelta : undefined,
        transferToAgent: transfer?.transferTo,
        escalate: transfer?.escalate,
      }),
      artifacts: Object.keys(artifacts).length ? artifacts : undefined,
      toolTimings: Object.fromEntries(answers.map((a) => [a.response.id, a.ms])),
      timing: { startedAt, ms: performance.now() - t0 },
      endReason: longRunning.length && !fatal ? undefined : endReason,
      ...(fatal ? { error: { code: fatal.code, message: `A tool stopped the run: ${fatal.message}` } } : {}),
    });
    if (fatal) return { kind: 'end', reason: 'error' };
  }
  for (const a of answers)
    if (!a.response.error && !isBuiltin(a.response.name)) inv.selector?.afterCall(a.response.name);
  if (longRunning.length) {
    await record(inv, {
      author: agentName,
      longRunningToolIds: longRunning,
      endReason: 'long-running',
      artifacts: parts.length > answered.length ? pickArtifacts(answers, longRunning) : undefined,
    });
    return { kind: 'end', reason: 'long-running' };
  }
  return endReason ? { kind: 'end', reason: endReason } : { kind: 'continue' };
}

function isBuiltin(name: string): boolean {
  return name === TRANSFER_TOOL || name === ESCALATE_TOOL;
}

/** One call, started lazily so that sequential calls really run one after another. */
interface PendingCall {
  call: FunctionCall;
  start(): Promise<Answer>;
  /** The answer once it has arrived; undefined while running or never started. */
  settled?: Answer;
}

function answer(inv: Invocation, agentName: string, call: FunctionCall, unreadable?: string): PendingCall {
  let started: Promise<Answer> | undefined;
  const pending: PendingCall = {
    call,
    start: () =>
      (started ??= answerCall(inv, agentName, call, unreadable).then((a) => {
        pending.settled = a;
        return a;
      })),
  };
  return pending;
}

async function inSequence(inv: Invocation, pending: PendingCall[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const p of pending) answers.push(await raceAbort(p.start(), inv.signal));
  return answers;
}

async function answerCall(
  inv: Invocation,
  agentName: string,
  call: FunctionCall,
  unreadable?: string,
): Promise<Answer> {
  const t0 = performance.now();
  const fail = (error: string): Answer => ({
    response: { id: call.id, name: call.name, response: null, error },
    ms: performance.now() - t0,
  });
  if (unreadable) return fail(unreadable);

  const decision = decisionFor(inv.history, call.id);
  if (decision && !decision.granted) {
    return fail(
      `The user rejected this call${decision.reason ? `: ${decision.reason}` : ''}. Do not retry it; ask the user what to do instead.`,
    );
  }

  if (call.name === TRANSFER_TOOL || call.name === ESCALATE_TOOL) return builtinAnswer(inv, agentName, call, t0);

  const declaration = inv.tools.get(call.name);
  if (!declaration) return fail(unknownToolMessage(inv, call.name));
  const valid = validateWithJsonSchema(declaration, call.args);
  if (!valid.ok) return fail(valid.error.message);
  let args = valid.value;

  if (inv.hooks.has.beforeTool) {
    const before = (await runCallback(
      inv,
      () => inv.hooks.callback({ kind: 'beforeTool', name: call.name, args, callId: call.id }),
      'beforeTool',
    )) as { args?: unknown; result?: unknown } | undefined;
    if (before && typeof before === 'object' && 'result' in before) {
      return { response: { id: call.id, name: call.name, response: before.result }, ms: performance.now() - t0 };
    }
    if (before && typeof before === 'object' && 'args' in before) {
      const revalidated = validateWithJsonSchema(declaration, before.args);
      if (!revalidated.ok) return fail(`beforeTool gave arguments that do not fit: ${revalidated.error.message}`);
      args = revalidated.value;
    }
  }

  let outcome = await runTool(inv, agentName, declaration, { ...call, args });
  if (inv.hooks.has.afterTool) {
    const after = await runCallback(
      inv,
      () =>
        inv.hooks.callback({
          kind: 'afterTool',
          name: call.name,
          args,
          callId: call.id,
          result: outcome.ok ? outcome.result.content : undefined,
          error: outcome.ok ? undefined : outcome.error.message,
        }),
      'afterTool',
    );
    if (after !== undefined) outcome = { ok: true, result: { content: after }, ms: outcome.ms };
  }
  if (!outcome.ok) {
    const fatal = (outcome.error.details as { fatal?: boolean } | undefined)?.fatal ? outcome.error : undefined;
    return { ...fail(outcome.error.message), ms: outcome.ms, fatal };
  }
  const { result } = outcome;
  return {
    response: { id: call.id, name: call.name, response: result.content },
    ms: outcome.ms,
    artifact: result.artifact,
    stateDelta: result.stateDelta,
    final: declaration.returnDirect || result.finalAnswer === true,
    longRunning: declaration.longRunning,
  };
}

type Outcome = Awaited<ReturnType<Invocation['runner']['run']>>;

/** Runs a page tool with its timeout, plus slack for a page that never answers. */
async function runTool(
  inv: Invocation,
  agentName: string,
  declaration: ToolDeclaration,
  call: FunctionCall,
): Promise<Outcome> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  inv.signal.addEventListener('abort', onAbort, { once: true });
  const t0 = performance.now();
  const limit = declaration.timeoutMs + PAGE_SLACK_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      inv.runner.cancel(call.id);
      resolve({
        ok: false,
        ms: performance.now() - t0,
        error: {
          code: 'tool-timeout',
          message: `${call.name} did not answer within ${declaration.timeoutMs} ms (timeoutMs). Raise timeoutMs in defineTool if it needs longer.`,
        },
      });
    }, limit);
  });
  const run = inv.runner
    .run(
      {
        callId: call.id,
        name: call.name,
        args: call.args,
        sessionId: inv.sessionId,
        invocationId: inv.invocationId,
        agentName,
        state: { ...inv.state },
      },
      {
        signal: controller.signal,
        onChunk: (chunk) =>
          emitPartial(inv, {
            author: agentName,
            content: { role: 'tool', parts: [{ functionResponse: { id: call.id, name: call.name, response: chunk } }] },
          }),
      },
    )
    .catch((error): Outcome => {
      if (error instanceof AgentError && error.code === 'worker-crashed') throw error;
      return {
        ok: false,
        ms: performance.now() - t0,
        error: { code: 'tool-failed', message: `${call.name} failed: ${messageOf(error)}` },
      };
    });
  try {
    return await Promise.race([run, guard]);
  } finally {
    clearTimeout(timer);
    inv.signal.removeEventListener('abort', onAbort);
  }
}

function builtinAnswer(inv: Invocation, agentName: string, call: FunctionCall, t0: number): Answer {
  const args = (call.args ?? {}) as { agent_name?: unknown; reason?: unknown };
  if (call.name === ESCALATE_TOOL) {
    return {
      response: { id: call.id, name: call.name, response: { escalatedTo: inv.rootAgent } },
      ms: performance.now() - t0,
      transferTo: inv.rootAgent,
      escalate: true,
    };
  }
  const target = typeof args.agent_name === 'string' ? args.agent_name : '';
  if (!inv.agents.has(target) || target === agentName) {
    const others = [...inv.agents.keys()].filter((name) => name !== agentName);
    return {
      response: {
        id: call.id,
        name: call.name,
        response: null,
        error: `No agent named "${target}" to transfer to. Choose one of: ${others.join(', ')}.`,
      },
      ms: performance.now() - t0,
    };
  }
  return {
    response: { id: call.id, name: call.name, response: { transferredTo: target } },
    ms: performance.now() - t0,
    transferTo: target,
  };
}

function unknownToolMessage(inv: Invocation, name: string): string {
  const names = [...inv.tools.keys()];
  return `There is no tool named "${name}". Call one of: ${names.length ? names.join(', ') : '(no tools)'}, or answer in plain text.`;
}

/** On abort: every unfinished call is answered 'aborted' so the history stays well formed. */
async function recordAborted(
  inv: Invocation,
  agentName: string,
  calls: FunctionCall[],
  pending: PendingCall[],
  startedAt: number,
  t0: number,
): Promise<CallsOutcome> {
  for (const call of calls) inv.runner.cancel(call.id);
  const parts = calls.map((call, i) => ({
    functionResponse: pending[i]!.settled?.response ?? {
      id: call.id,
      name: call.name,
      response: null,
      error: 'aborted: the run was stopped before this call finished.',
    },
  }));
  await record(inv, {
    author: agentName,
    content: { role: 'tool', parts },
    error: { code: 'aborted', message: 'The run was aborted.' },
    endReason: 'aborted',
    timing: { startedAt, ms: performance.now() - t0 },
  });
  return { kind: 'end', reason: 'aborted' };
}

function pickArtifacts(answers: Answer[], ids: string[]): Record<string, unknown> | undefined {
  const picked = Object.fromEntries(
    answers
      .filter((a) => ids.includes(a.response.id) && a.response.response !== undefined)
      .map((a) => [a.response.id, a.response.response]),
  );
  return Object.keys(picked).length ? picked : undefined;
}

function compact<T extends Record<string, unknown>>(value: T): T | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length ? (Object.fromEntries(entries) as T) : undefined;
}

export type { AgentEvent };
