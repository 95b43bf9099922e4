/**
 * What the worker asks of the page: run a tool, parse a call's arguments
 * before approval, ask the person (onApproval), run a callback, report
 * progress and status. Handed to the worker as a comlink proxy.
 */
import type { ModelProgress } from '../model/engine';
import type { AgentStatus, CallbackPayload, PageApi, PreparedCall } from '../contract/protocol';
import { AgentError, messageOf } from '../errors';
import type { ApprovalRequest } from '../session/event';
import type { AgentOptions } from './options';
import { runCallbacks } from './run-callbacks';
import type { ToolHost } from './tool-host';

export function pageApi(parts: {
  options: AgentOptions;
  toolHost: ToolHost;
  /** Sends a running call's streamed chunk to the worker. */
  sendChunk(callId: string, chunk: unknown): void;
  onProgress(progress: ModelProgress): void;
  onStatus(status: AgentStatus, detail?: string): void;
}): PageApi {
  const { options, toolHost } = parts;
  return {
    callTool: (request) => toolHost.callTool(request, (chunk) => parts.sendChunk(request.callId, chunk)),
    abortTool: (callId) => toolHost.abort(callId),
    prepareCalls: async (invocationId, calls) => {
      const prepared: PreparedCall[] = [];
      for (const call of calls) prepared.push(await toolHost.prepare(invocationId, call));
      const { onApproval } = options;
      if (onApproval)
        for (const [i, call] of calls.entries()) {
          const one = prepared[i]!;
          if (one.ok && one.needsApproval) one.granted = await ask(onApproval, { ...call, args: one.args });
        }
      return prepared;
    },
    callback: (payload) => callback(options, payload),
    progress: (progress) => {
      options.model.onProgress?.(progress);
      parts.onProgress(progress);
    },
    status: (status, detail) => parts.onStatus(status, detail),
  };
}

/** The person's decision; a copy of the arguments, so that a dialog cannot change what runs. */
async function ask(onApproval: NonNullable<AgentOptions['onApproval']>, call: ApprovalRequest): Promise<boolean> {
  try {
    return (await onApproval({ ...call, args: structuredClone(call.args) })) === true;
  } catch (error) {
    throw new AgentError(
      'callback-failed',
      `The onApproval callback threw: ${messageOf(error)}. Fix the callback; the run was stopped.`,
      { cause: error },
    );
  }
}

function callback(options: AgentOptions, payload: CallbackPayload): Promise<unknown> {
  const callbacks = options.callbacks ?? {};
  switch (payload.kind) {
    case 'beforeModel':
      return runCallbacks(callbacks.beforeModel, [payload.request, { agentName: payload.agentName }]);
    case 'afterModel':
      return runCallbacks(callbacks.afterModel, [payload.response, { agentName: payload.agentName }]);
    case 'beforeTool':
      return runCallbacks(callbacks.beforeTool, [{ name: payload.name, args: payload.args, callId: payload.callId }]);
    case 'afterTool': {
      const { kind: _kind, ...call } = payload;
      return runCallbacks(callbacks.afterTool, [call]);
    }
  }
}
