/**
 * Where an inpageModel's steps run: always an agent's worker, through
 * agent.generate. Given an agent, its worker and its loaded model serve the
 * AI SDK too (several inpageModel instances may share one agent). Given model
 * options, the model gets an agent of its own, made at its first step, that
 * keeps nothing (storage 'memory') and is restarted like any agent's worker.
 */
import type { ModelDelta, ModelRequest } from '../model/engine';
import type { ModelOptions } from '../model/model-options';
import { AgentError, createAgent, type Agent } from '../index';

export interface ModelSource {
  generate(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta>;
  /** Closes the agent the source made; an agent it was given stays the page's. */
  close(): Promise<void>;
}

export interface OwnAgentSettings {
  /** Where inpage-agent/worker is served, as createAgent({ workerUrl }). */
  workerUrl?: string | URL;
}

export function agentSource(agent: Agent): ModelSource {
  return {
    generate: (request, signal) => agent.generate(request, { signal }),
    close: async () => undefined,
  };
}

export function ownAgentSource(model: ModelOptions, settings: OwnAgentSettings): ModelSource {
  let agent: Promise<Agent> | undefined;
  let starting: AbortController | undefined;
  const started = () => {
    if (agent) return agent;
    starting = new AbortController();
    agent = createAgent({
      model,
      storage: 'memory',
      appName: 'inpage-agent/ai-sdk',
      signal: starting.signal,
      ...(settings.workerUrl !== undefined && { workerUrl: settings.workerUrl }),
    }).catch((error: unknown) => {
      // A start that failed (a download, a missing worker) is tried again at the next step.
      agent = undefined;
      throw error;
    });
    return agent;
  };
  return {
    async *generate(request, signal) {
      // A step aborted while the model loads ends at once; the load goes on for the next step.
      yield* (await untilAborted(started(), signal)).generate(request, { signal });
    },
    async close() {
      const made = agent;
      agent = undefined;
      starting?.abort();
      await (await made?.catch(() => undefined))?.close();
    },
  };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new AgentError('aborted', 'The generation was aborted.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AgentError('aborted', 'The generation was aborted.'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The name the AI SDK shows for a model given by its options. */
export function modelIdOf(model: ModelOptions): string {
  if ('modelId' in model && typeof model.modelId === 'string' && model.modelId) return model.modelId;
  if ('url' in model && typeof model.url === 'string') return model.url;
  return model.engine;
}
