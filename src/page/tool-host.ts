/**
 * Runs the page's tools for the worker. Arguments are parsed with the
 * tool's own schema once before `execute` (the worker checked them against
 * the JSON Schema before), each call gets its own AbortController so the
 * worker can stop it, and whatever the tool writes with ctx.setState travels
 * back as the call's state delta. Before a call that may need approval, the
 * worker asks for its arguments as the schema parses them, and for the
 * tool's rule applied to those; the call then runs with exactly those
 * arguments, not parsed again.
 */
import { AgentError } from '../errors';
import { findUncloneable } from '../tools/find-uncloneable';
import { describeJsonProblem, jsonProblem } from '../tools/plain-json';
import { invokeTool, type ToolOutcome } from '../tools/invoke-tool';
import { needsApproval } from '../tools/needs-approval';
import { assertUniqueToolNames, type Tool } from '../tools/define-tool';
import type { ToolDeclaration } from '../tools/declaration';
import { toDeclaration } from '../tools/to-declaration';
import { validateToolArgs } from '../tools/validate-args';
import type { CallInfo, PreparedCall, ToolCallRequest } from '../contract/protocol';
import { sameData } from '../tools/same-data';

/** A call this page parsed before approval, kept until it runs. */
interface Prepared {
  invocationId: string;
  tool: Tool;
  /** The arguments as the worker sent them. */
  args: unknown;
  parsed: unknown;
}

export class ToolHost {
  /** The page's tools by name, and what the worker knows of each (toDeclaration, made once). */
  readonly tools = new Map<string, Tool>();
  private readonly declarations = new Map<string, ToolDeclaration>();
  /** Told when the worker asks to run a call, by call id (the agent watches the calls it decides). */
  readonly onStart = new Map<string, () => void>();
  private readonly running = new Map<string, AbortController>();
  private readonly prepared = new Map<string, Prepared>();

  /** @param onLate receives what a stopped tool returned after all (see invokeTool). */
  constructor(private readonly onLate?: (request: ToolCallRequest, outcome: ToolOutcome) => void) {}

  /** Adds a tool (its name must be free) and gives its declaration for the worker. */
  register(tool: Tool): ToolDeclaration {
    assertUniqueToolNames([...this.tools.values(), tool]);
    const declaration = toDeclaration(tool);
    this.tools.set(tool.name, tool);
    this.declarations.set(tool.name, declaration);
    return declaration;
  }

  unregister(name: string): void {
    this.tools.delete(name);
    this.declarations.delete(name);
  }

  /** What a worker starting now is handed: every tool registered at this moment. */
  declared(): ToolDeclaration[] {
    return [...this.declarations.values()];
  }

  async callTool(request: ToolCallRequest, onChunk?: (chunk: unknown) => void): Promise<ToolOutcome> {
    const tool = this.tools.get(request.name);
    if (!tool) return { ok: false, error: unknownTool(request.name).toJSON(), ms: 0 };
    this.onStart.get(request.callId)?.();
    const kept = this.prepared.get(request.callId);
    this.prepared.delete(request.callId);
    // The same tool and the same arguments it parsed before approval (no callback changed them): parsed already.
    const parsed = kept && kept.tool === tool && sameData(kept.args, request.args) ? { value: kept.parsed } : undefined;
    const controller = new AbortController();
    this.running.set(request.callId, controller);
    const state = { ...request.state };
    try {
      const outcome = await invokeTool(tool, request.args, {
        signal: controller.signal,
        approvedArgs: request.approvedArgs,
        parsed,
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

  /**
   * The arguments as `execute` would get them, and the tool's approval rule
   * applied to those; kept, so that the call runs with them.
   */
  async prepare(invocationId: string, call: CallInfo): Promise<PreparedCall> {
    const { name, args } = call;
    // What an earlier run prepared and never ran (rejected, superseded) is dropped.
    for (const [id, kept] of this.prepared) if (kept.invocationId !== invocationId) this.prepared.delete(id);
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
    this.prepared.set(call.callId, { invocationId, tool, args, parsed: valid.value });
    return { ok: true, args: valid.value, needsApproval: needsApproval(tool, valid.value) };
  }
}

function unknownTool(name: string): AgentError {
  return new AgentError('unknown-tool', `The page has no tool "${name}" (it was unregistered or never registered).`);
}
