/**
 * createAgent: checks the options, starts the worker, hands it the tool
 * declarations, and resolves once the model is loaded and the session open.
 */
import { AgentError } from '../errors';
import { asTool } from '../tools/define-tool';
import type { HostConfig } from '../contract/protocol';
import { limitsOf } from '../contract/limit-defaults';
import { Agent } from './agent';
import type { AgentOptions } from './options';
import { checkOptions } from './options-schema';
import type { AgentSettings } from './supervisor';

export async function createAgent(given: AgentOptions): Promise<Agent> {
  checkOptions(given);
  // Each tool checked again and rebuilt: a copy or a hand-made object skipped defineTool's checks.
  const options = { ...given, tools: given.tools?.map((tool) => asTool(tool, 'createAgent')) };
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

/** The options as they cross to the worker: plain data, functions replaced by what they imply. */
function hostConfig(options: AgentOptions): AgentSettings {
  const { onProgress: _onProgress, ...modelConfig } = options.model;
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
  // And a GGUF's address (or each of a split model's).
  if (modelConfig.engine === 'wllama' && typeof document !== 'undefined') {
    const absolute = (url: string) => (URL.canParse(url, document.baseURI) ? new URL(url, document.baseURI).href : url);
    modelConfig.url = Array.isArray(modelConfig.url) ? modelConfig.url.map(absolute) : absolute(modelConfig.url);
  }
  const callbacks = options.callbacks ?? {};
  return {
    appName: options.appName ?? (typeof location !== 'undefined' ? location.origin : 'inpage-agent'),
    userId: options.userId ?? 'local',
    dbName: options.dbName ?? 'inpage-agent',
    storage: options.storage ?? 'indexeddb',
    sessionId: options.sessionId,
    instructions: options.instructions ?? '',
    model: modelConfig as HostConfig['model'],
    ...limitsOf(options),
    ...(options.decisions !== undefined && { decisions: options.decisions }),
    callbacks: {
      beforeModel: Boolean(callbacks.beforeModel),
      afterModel: Boolean(callbacks.afterModel),
      beforeTool: Boolean(callbacks.beforeTool),
      afterTool: Boolean(callbacks.afterTool),
    },
    agents: (options.agents ?? []).map(({ name, instructions, description, tools }) => ({
      name,
      instructions,
      description,
      tools,
    })),
    rootAgent: options.rootAgent,
    toolkit: options.toolkit,
    toolChoice: options.toolChoice,
  };
}
