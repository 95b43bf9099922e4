/**
 * doGenerate is doStream read to its end: the parts gathered into the AI SDK's
 * content (text and reasoning whole, calls as they were), with the finish's
 * reason, usage and metadata. One path, so both calls carry the same raw
 * output and tell the same story.
 */
import type {
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import { usageOf } from './stream-parts';

export async function collectContent(
  stream: ReadableStream<LanguageModelV3StreamPart>,
): Promise<Omit<LanguageModelV3GenerateResult, 'request'>> {
  const result: Omit<LanguageModelV3GenerateResult, 'request'> = {
    content: [],
    finishReason: { unified: 'other', raw: undefined },
    usage: usageOf(undefined),
    warnings: [],
  };
  const open = new Map<string, Extract<LanguageModelV3Content, { type: 'text' | 'reasoning' }>>();
  const withMetadata = (metadata: SharedV3ProviderMetadata | undefined) =>
    metadata ? { providerMetadata: metadata } : {};
  const reader = stream.getReader();
  for (;;) {
    const { done, value: part } = await reader.read();
    if (done) return result;
    switch (part.type) {
      case 'stream-start':
        result.warnings = part.warnings;
        break;
      case 'response-metadata':
        result.response = { id: part.id, timestamp: part.timestamp, modelId: part.modelId };
        break;
      case 'text-start':
      case 'reasoning-start': {
        const content = { type: part.type === 'text-start' ? ('text' as const) : ('reasoning' as const), text: '' };
        open.set(part.id, content);
        result.content.push(content);
        break;
      }
      case 'text-delta':
      case 'reasoning-delta':
        open.get(part.id)!.text += part.delta;
        break;
      case 'text-end':
      case 'reasoning-end':
        Object.assign(open.get(part.id)!, withMetadata(part.providerMetadata));
        open.delete(part.id);
        break;
      case 'tool-call':
        result.content.push(part);
        break;
      case 'finish':
        result.finishReason = part.finishReason;
        result.usage = part.usage;
        Object.assign(result, withMetadata(part.providerMetadata));
        break;
      case 'error':
        throw part.error;
    }
  }
}
