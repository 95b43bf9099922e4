/**
 * web-llm's real MLCEngine with a weightless pipeline in place of a loaded
 * model (weightless-pipeline.ts). Everything between our request and the
 * pipeline is web-llm's own code: postInitAndCheckFields (which, for the
 * Hermes ids, writes web-llm's tool system prompt), asyncGenerate, the
 * prefill decision (preparePrefillInput with getConversationFromChatCompletionRequest
 * and compareConversationObject), the stream's chunks, the tool-call parsing
 * and the usage chunk. Only reload() is replaced (there are no weights to
 * fetch; it lays the ChatOptions it is given over the chat config, as web-llm's
 * reloadInternal lays them over mlc-chat-config.json) and getLLMStates, whose
 * instanceof check cannot know a class of ours.
 */
import { MLCEngine, prebuiltAppConfig, type ChatOptions } from '@mlc-ai/web-llm';
import type { WebLLMEngineLike } from '../../../src/model/engines/webllm/webllm-engine';
import type { ChatConfigLike } from './chat-configs';
import { WeightlessPipeline, type TokenizerLike } from './weightless-pipeline';

export interface PrefillEngine {
  engine: WebLLMEngineLike;
  pipeline: WeightlessPipeline;
}

export interface WeightlessOptions {
  chatConfig: ChatConfigLike;
  tokenizer: TokenizerLike;
  outputs: string[];
  msPerToken?: number;
}

export function prefillEngine(options: WeightlessOptions & { modelId: string }): PrefillEngine {
  const engine = new MLCEngine({ appConfig: prebuiltAppConfig, logLevel: 'WARN' });
  const pipeline = makeWeightless(engine, options);
  return { engine: engine as unknown as WebLLMEngineLike, pipeline };
}

/**
 * Makes an MLCEngine weightless: its reload() installs a weightless pipeline
 * instead of fetching a model. For an engine made elsewhere (a peer library's),
 * call it from a patched MLCEngine.prototype.reload.
 */
export function makeWeightless(engine: MLCEngine, options: WeightlessOptions): WeightlessPipeline {
  const pipeline = new WeightlessPipeline(
    options.tokenizer,
    options.chatConfig.context_window_size,
    options.outputs,
    options.msPerToken,
  );
  const internals = engine as unknown as {
    loadedModelIdToPipeline: Map<string, unknown>;
    loadedModelIdToChatConfig: Map<string, unknown>;
    loadedModelIdToModelType: Map<string, unknown>;
    loadedModelIdToLock: Map<string, { acquire(): Promise<void>; release(): Promise<void> }>;
    getLLMStates(requestName: string, modelId?: string | null): [string, unknown, unknown];
  };
  const install = (modelId: string | string[], chatOpts?: ChatOptions | ChatOptions[]) => {
    const id = String(modelId);
    const opts = Array.isArray(chatOpts) ? chatOpts[0] : chatOpts;
    internals.loadedModelIdToPipeline.set(id, pipeline);
    internals.loadedModelIdToChatConfig.set(id, { ...options.chatConfig, ...opts });
    internals.loadedModelIdToModelType.set(id, 0 /* ModelType.LLM */);
    internals.loadedModelIdToLock.set(id, oneAtATime());
  };
  engine.reload = async (modelId: string | string[], chatOpts?: ChatOptions | ChatOptions[]) =>
    install(modelId, chatOpts);
  internals.getLLMStates = (_requestName, modelId) => {
    const id = modelId ?? [...internals.loadedModelIdToPipeline.keys()][0];
    return [id, internals.loadedModelIdToPipeline.get(id), internals.loadedModelIdToChatConfig.get(id)];
  };
  return pipeline;
}

/** web-llm's CustomLock: one generation at a time. */
function oneAtATime() {
  let tail = Promise.resolve();
  const releases: (() => void)[] = [];
  return {
    async acquire() {
      const previous = tail;
      let release!: () => void;
      tail = new Promise<void>((resolve) => (release = resolve));
      await previous;
      releases.push(release);
    },
    async release() {
      releases.shift()?.();
    },
  };
}
