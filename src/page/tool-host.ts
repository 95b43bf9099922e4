/**
 * Runs the page's tools for the worker. Arguments are validated with the
 * tool's own schema before `execute` (the worker validated them too), each
 * call gets its own AbortController so the worker can stop it, and whatever
 * the tool writes with ctx.setState travels back as the call's state delta.
 */
import { AgentError } from '../errors';
import { invokeTool, type ToolOutcome } from '../tools/invoke-tool';
import type { Tool } from '../tools/define-tool';
import type { ToolCallRequest } from '../worker/protocol';

export class ToolHost {
  readonly tools = new Map<string, Tool>();
  private readonly running = new Map<string, AbortController>();

  /** @param onLate receives what a stopped tool returned after all (see invokeTool). */
  constructor(private readonly onLate?: (request: ToolCallRequest, outcome: ToolOutcome) => void) {}

  async callTool(request: ToolCallRequest, onChunk?: (chunk: unknown) => void): Promise<ToolOutcome> {
    const tool = this.tools.get(request.name);
    if (!tool) {
      const error = new AgentError(
        'unknown-tool',
        `The page has no tool "${request.name}" (it was unregistered or never registered).`,
      );
      return { ok: false, error: error.toJSON(), ms: 0 };
    }
    const controller = new AbortController();
    this.running.set(request.callId, controller);
    const written: Record<string, unknown> = {};
    const state = { ...request.state };
    try {
      const outcome = await invokeTool(tool, request.args, {
        signal: controller.signal,
        onChunk,
        onLate: this.onLate && ((outcome) => this.onLate!(request, outcome)),
        context: {
          sessionId: request.sessionId,
          invocationId: request.invocationId,
          callId: request.callId,
          agentName: request.agentName,
          state,
          setState: (delta: Record<string, unknown>) => {
            Object.assign(written, delta);
            Object.assign(state, delta);
          },
        },
      });
      if (outcome.ok && Object.keys(written).length) {
        outcome.result.stateDelta = { ...written, ...outcome.result.stateDelta };
      }
      return outcome;
    } finally {
      this.running.delete(request.callId);
    }
  }

  abort(callId: string): void {
    this.running.get(callId)?.abort();
  }

  needsApproval(name: string, args: unknown): boolean {
    const rule = this.tools.get(name)?.needsApproval;
    if (typeof rule !== 'function') return Boolean(rule);
    try {
      return Boolean(rule(args as never));
    } catch {
      // A rule that cannot decide asks: the safe side for a tool that needs approval at all.
      return true;
    }
  }
}
