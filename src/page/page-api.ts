/**
 * What the worker asks of the page: run a tool, parse a call's arguments
 * before approval, ask the person (onApproval), run a callback, report
 * progress and status. Handed to the worker as a comlink proxy.
 */
import type { ModelProgress } from '../model/engine';
import type { AgentStatus, CallbackPayload, PageApi } from '../contract/protocol';
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
    prepareCall: (name, args) => toolHost.prepareCall(name, args),
    approve: async (call) => (await options.onApproval?.(call)) === true,
    callback: (payload) => callback(options, payload),
    progress: (progress) => {
      options.model.onProgress?.(progress);
      parts.onProgress(progress);
    },
    status: (status, detail) => parts.onStatus(status, detail),
  };
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
