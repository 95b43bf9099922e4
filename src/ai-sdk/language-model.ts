/**
 * inpageModel: a LanguageModelV3 over our worker's engines. The AI SDK keeps
 * its own loop and runs its own tools; each of its steps is one step of our
 * model, with the family's format, the grammar that holds calls to the tools'
 * schemas, and the KV cache kept across steps by replaying the model's raw
 * output (stream-parts.ts, raw-seal.ts).
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import type { ModelOptions } from '../model/model-options';
import type { Agent } from '../index';
import { collectContent } from './collect-content';
import { checkModelArguments, isModelOptions } from './entry-arguments';
import { toModelRequest } from './model-request';
import { agentSource, modelIdOf, ownAgentSource, type ModelSource, type OwnAgentSettings } from './model-source';
import { PROVIDER_KEY } from './provider-key';
import { streamParts } from './stream-parts';

export type InpageModelSettings = OwnAgentSettings;

export class InpageLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = PROVIDER_KEY;
  /** Local models read no URLs: the AI SDK downloads nothing for them either (files are refused). */
  readonly supportedUrls: Record<string, RegExp[]> = {};

  constructor(
    readonly modelId: string,
    private readonly source: ModelSource,
  ) {}

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { request, warnings } = await toModelRequest(options);
    const signal = options.abortSignal;
    signal?.throwIfAborted();
    // A reader that stops reading (cancels) stops the generation too, abort signal or not.
    const cancelled = new AbortController();
    const generation = this.source.generate(
      request,
      signal ? AbortSignal.any([signal, cancelled.signal]) : cancelled.signal,
    );
    const parts = streamParts(generation, { includeRawChunks: options.includeRawChunks });
    const opening: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings },
      { type: 'response-metadata', modelId: this.modelId, timestamp: new Date() },
    ];
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of opening) controller.enqueue(part);
      },
      async pull(controller) {
        try {
          const next = await parts.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          // An abort is the caller's own AbortError, which the AI SDK recognizes as one.
          controller.error(signal?.aborted ? signal.reason : error);
        }
      },
      async cancel() {
        cancelled.abort();
        await parts.return(undefined);
      },
    });
    return { stream, request: { body: request } };
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { stream, request } = await this.doStream(options);
    return { ...(await collectContent(stream)), request };
  }

  /** Closes the agent this model made for itself (its worker and loaded model); a model made from an agent leaves it open. */
  close(): Promise<void> {
    return this.source.close();
  }
}

/**
 * A LanguageModelV3 for the AI SDK (generateText, streamText, Agent, …) that
 * runs in this page's worker. `model` takes createAgent's model options (the
 * model gets a worker of its own at its first step), or an agent, whose worker
 * and loaded model it shares.
 */
export function inpageModel(model: ModelOptions | Agent, settings?: InpageModelSettings): InpageLanguageModel {
  checkModelArguments(model, settings);
  if (isModelOptions(model)) return new InpageLanguageModel(modelIdOf(model), ownAgentSource(model, settings ?? {}));
  return new InpageLanguageModel(model.info?.model.modelId ?? 'agent', agentSource(model));
}
