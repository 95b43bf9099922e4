/**
 * The engine's deltas as the AI SDK's stream parts: text and reasoning blocks
 * (start, deltas, end), each tool call as its input (start, one delta, end)
 * and then the call, and a finish with its reason and usage.
 *
 * The model's raw output rides on the provider metadata of the turn's last
 * content part (a text or reasoning end, or the last call), which the AI SDK
 * copies into the next step's prompt. It is known only at the finish, so the
 * part that may be last is held until the next delta shows it is not.
 */
import type {
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import type { FinishReason, ModelDelta } from '../model/engine';
import type { Usage } from '../session/event';
import { PROVIDER_KEY } from './provider-key';
import { sealRaw } from './raw-seal';

type Block = { kind: 'text' | 'reasoning'; id: string };
type ToolCallPart = Extract<LanguageModelV3StreamPart, { type: 'tool-call' }>;

export async function* streamParts(
  deltas: AsyncIterable<ModelDelta>,
  options: { includeRawChunks?: boolean } = {},
): AsyncGenerator<LanguageModelV3StreamPart> {
  let block: Block | undefined;
  let heldCall: ToolCallPart | undefined;
  const notices: { code: string; message: string }[] = [];
  let parts = 0;
  const nextId = () => `${parts++}`;

  /** Whatever is open or held, closed: something else follows it. */
  function* settle(): Generator<LanguageModelV3StreamPart> {
    if (block) yield { type: `${block.kind}-end`, id: block.id };
    block = undefined;
    if (heldCall) yield heldCall;
    heldCall = undefined;
  }

  for await (const delta of deltas) {
    if (options.includeRawChunks) yield { type: 'raw', rawValue: delta };
    switch (delta.type) {
      case 'text':
      case 'reasoning':
        if (block?.kind !== delta.type) {
          yield* settle();
          block = { kind: delta.type, id: nextId() };
          yield { type: `${delta.type}-start`, id: block.id };
        }
        yield { type: `${delta.type}-delta`, id: block.id, delta: delta.text };
        break;
      case 'tool-call':
      case 'tool-call-error': {
        yield* settle();
        // Our own id, never the model's: small models repeat theirs ("call_0" every turn).
        const id = `call-${crypto.randomUUID()}`;
        const toolName = delta.type === 'tool-call' ? delta.call.name : (delta.name ?? '');
        // An unreadable call goes to the AI SDK as the text it was: its input does not parse, so the AI SDK
        // takes its own path for invalid calls (experimental_repairToolCall, then a tool-error the model reads).
        const input = delta.type === 'tool-call' ? (JSON.stringify(delta.call.args ?? {}) ?? '{}') : delta.raw;
        yield { type: 'tool-input-start', id, toolName };
        yield { type: 'tool-input-delta', id, delta: input };
        yield { type: 'tool-input-end', id };
        heldCall = { type: 'tool-call', toolCallId: id, toolName, input };
        break;
      }
      case 'notice':
        notices.push({ code: delta.code, message: delta.message });
        break;
      case 'finish': {
        const metadata = await providerMetadata(delta.raw, notices);
        if (block) yield { type: `${block.kind}-end`, id: block.id, providerMetadata: metadata };
        else if (heldCall) yield { ...heldCall, providerMetadata: metadata };
        block = undefined;
        heldCall = undefined;
        yield {
          type: 'finish',
          finishReason: finishReasonOf(delta.reason),
          usage: usageOf(delta.usage),
          providerMetadata: metadata,
        };
        return;
      }
    }
  }
  // An engine that ended without a finish (a page's own module may).
  yield* settle();
  yield { type: 'finish', finishReason: { unified: 'other', raw: undefined }, usage: usageOf(undefined) };
}

async function providerMetadata(
  raw: string | undefined,
  notices: { code: string; message: string }[],
): Promise<SharedV3ProviderMetadata> {
  const sealed = raw === undefined ? undefined : await sealRaw(raw);
  return { [PROVIDER_KEY]: { ...sealed, ...(notices.length && { notices }) } };
}

const UNIFIED: Record<FinishReason, LanguageModelV3FinishReason['unified']> = {
  stop: 'stop',
  'tool-calls': 'tool-calls',
  length: 'length',
  abort: 'other',
  error: 'error',
};

function finishReasonOf(reason: FinishReason): LanguageModelV3FinishReason {
  return { unified: UNIFIED[reason] ?? 'other', raw: reason };
}

/**
 * Our engines count a step's prompt and completion; an engine that reports its KV cache (wllama) also says how
 * much of the prompt it read from the last step's cache, which is the AI SDK's cacheRead. Reasoning is not told apart.
 */
export function usageOf(usage: Usage | undefined): LanguageModelV3Usage {
  const cached = usage?.cachedPromptTokens;
  return {
    inputTokens: {
      total: usage?.promptTokens,
      noCache: cached === undefined || !usage ? undefined : usage.promptTokens - cached,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: { total: usage?.completionTokens, text: undefined, reasoning: undefined },
    ...(usage && { raw: { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens } }),
  };
}
