/**
 * createAgent: checks the options, starts the worker, hands it the tool
 * declarations, and resolves once the model is loaded and the session open.
 */
import { AgentError } from '../errors';
import type { HostConfig } from '../worker/protocol';
import { Agent, declarationsOf } from './agent';
import type { AgentOptions } from './options';

export async function createAgent(options: AgentOptions): Promise<Agent> {
  const agent = new Agent(options, hostConfig(options));
  const { signal } = options;
  if (signal?.aborted) throw new AgentError('aborted', 'createAgent was aborted before it started.');
  const cancelled = new Promise<never>((_, reject) =>
    signal?.addEventListener(
      'abort',
      () =>
        reject(
          new AgentError(
            'aborted',
            'Starting the agent was cancelled; its worker (and any model download) was stopped.',
          ),
        ),
      { once: true },
    ),
  );
  cancelled.catch(() => undefined);
  try {
    await Promise.race([agent.start(), cancelled]);
  } catch (error) {
    await agent.close().catch(() => undefined);
    throw error;
  }
  return agent;
}

function hostConfig(options: AgentOptions): HostConfig {
  if (!options || typeof options !== 'object') throw invalid('createAgent(options) needs an options object.');
  const { model } = options;
  if (!model || (model.engine !== 'webllm' && model.engine !== 'scripted' && model.engine !== 'module')) {
    throw invalid(
      "model.engine must be 'webllm' (a local model), 'scripted' (replayed turns, for tests and demos) or 'module' (your own engine module).",
    );
  }
  if (model.engine === 'module' && (typeof model.url !== 'string' || !model.url))
    throw invalid("model.url is required with engine 'module': the address of an ES module of this origin.");
  if (model.engine === 'webllm' && !model.modelId)
    throw invalid("model.modelId is required with engine 'webllm', e.g. 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC'.");
  if (model.engine === 'scripted' && !Array.isArray(model.turns))
    throw invalid("model.turns must be an array with engine 'scripted'.");
  const maxSteps = options.maxSteps ?? 10;
  if (!Number.isInteger(maxSteps) || maxSteps < 1)
    throw invalid(`maxSteps must be a whole number of at least 1 (got ${String(options.maxSteps)}).`);
  const callbacks = options.callbacks ?? {};
  const agents = options.agents ?? [];
  if (options.rootAgent && !agents.some((agent) => agent.name === options.rootAgent)) {
    throw invalid(
      `rootAgent "${options.rootAgent}" is not one of agents (${agents.map((agent) => agent.name).join(', ') || 'none given'}).`,
    );
  }
  const { onProgress: _onProgress, ...modelConfig } = model;
  // The start signal stays on the page; it cannot cross to the worker.
  // Relative model URLs in appConfig mean "from this page's origin"; the worker cannot know the page's base.
  if (modelConfig.engine === 'webllm' && !modelConfig.baseUrl && typeof document !== 'undefined')
    modelConfig.baseUrl = document.baseURI;
  // Likewise a relative module url: the worker would resolve it against its own script's address.
  if (
    modelConfig.engine === 'module' &&
    typeof document !== 'undefined' &&
    URL.canParse(modelConfig.url, document.baseURI)
  )
    modelConfig.url = new URL(modelConfig.url, document.baseURI).href;
  return {
    appName: options.appName ?? (typeof location !== 'undefined' ? location.origin : 'inpage-agent'),
    userId: options.userId ?? 'local',
    dbName: options.dbName ?? 'inpage-agent',
    storage: options.storage ?? 'indexeddb',
    sessionId: options.sessionId,
    instructions: options.instructions ?? '',
    model: modelConfig as HostConfig['model'],
    tools: declarationsOf(options.tools ?? []),
    maxSteps,
    maxToolCallsPerStep: options.maxToolCallsPerStep ?? 8,
    callbacks: {
      beforeModel: Boolean(callbacks.beforeModel),
      afterModel: Boolean(callbacks.afterModel),
      beforeTool: Boolean(callbacks.beforeTool),
      afterTool: Boolean(callbacks.afterTool),
    },
    pageApproves: typeof options.onApproval === 'function',
    agents: agents.map(({ name, instructions, description, tools }) => ({ name, instructions, description, tools })),
    rootAgent: options.rootAgent,
    toolkit: options.toolkit,
    toolChoice: options.toolChoice,
  };
}

function invalid(message: string): AgentError {
  return new AgentError('invalid-options', message);
}
