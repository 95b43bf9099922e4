/**
 * Runs the page's tools for the worker. Arguments are validated with the
 * tool's own schema before `execute` (the worker validated them too), each
 * call gets its own AbortController so the worker can stop it, and whatever
 * the tool writes with ctx.setState travels back as the call's state delta.
 * Before a call that may need approval, the worker asks for its arguments as
 * the schema parses them, and for the tool's rule applied to those.
 */
import { AgentError } from '../errors';
import { findUncloneable } from '../tools/find-uncloneable';
import { describeJsonProblem, jsonProblem } from '../tools/plain-json';
import { invokeTool, type ToolOutcome } from '../tools/invoke-tool';
import { needsApproval } from '../tools/needs-approval';
import type { Tool } from '../tools/define-tool';
import { validateToolArgs } from '../tools/validate-args';
import type { PreparedCall, ToolCallRequest } from '../worker/protocol';

export class ToolHost {
  readonly tools = new Map<string, Tool>();
  /** Told when the worker asks to run a call, by call id (the agent watches the calls it decides). */
  readonly onStart = new Map<string, () => void>();
  private readonly running = new Map<string, AbortController>();

  /** @param onLate receives what a stopped tool returned after all (see invokeTool). */
  constructor(private readonly onLate?: (request: ToolCallRequest, outcome: ToolOutcome) => void) {}

  async callTool(request: ToolCallRequest, onChunk?: (chunk: unknown) => void): Promise<ToolOutcome> {
    const tool = this.tools.get(request.name);
    if (!tool) return { ok: false, error: unknownTool(request.name).toJSON(), ms: 0 };
    this.onStart.get(request.callId)?.();
    const controller = new AbortController();
    this.running.set(request.callId, controller);
    const state = { ...request.state };
    try {
      const outcome = await invokeTool(tool, request.args, {
        signal: controller.signal,
        approvedArgs: request.approvedArgs,
        onChunk,
        onLate: this.onLate && ((outcome) => this.onLate!(request, outcome)),
        context: {
          sessionId: request.sessionId,
          invocationId: request.invocationId,
          callId: request.callId,
          agentName: request.agentName,
          state,
          // invokeTool carries what is written with the result; the tool reads its own writes.
          setState: (delta: Record<string, unknown>) => Object.assign(state, delta),
        },
      });
      return outcome;
    } finally {
      this.running.delete(request.callId);
    }
  }

  abort(callId: string): void {
    this.running.get(callId)?.abort();
  }

  /** The arguments as `execute` would get them, and the tool's approval rule applied to those. */
  async prepareCall(name: string, args: unknown): Promise<PreparedCall> {
    const tool = this.tools.get(name);
    if (!tool) return { ok: false, error: unknownTool(name).toJSON() };
    const valid = await validateToolArgs(tool, args);
    if (!valid.ok) return { ok: false, error: valid.error.toJSON() };
    // The person is shown these, and the session keeps them with the request: plain data, as a result is.
    const uncloneable = findUncloneable(valid.value);
    const notJson = uncloneable ? undefined : jsonProblem(valid.value, 'the arguments');
    const problem = uncloneable
      ? `${uncloneable.path || 'the value'} is ${uncloneable.what}`
      : notJson && describeJsonProblem(notJson);
    if (problem) {
      const error = new AgentError(
        'invalid-tool',
        `Tool "${name}": its schema turns the arguments into something that cannot be shown for approval (${problem}). Keep parsed arguments to plain data.`,
      );
      return { ok: false, error: error.toJSON() };
    }
    return { ok: true, args: valid.value, needsApproval: needsApproval(tool, valid.value) };
  }
}

function unknownTool(name: string): AgentError {
  return new AgentError('unknown-tool', `The page has no tool "${name}" (it was unregistered or never registered).`);
}
