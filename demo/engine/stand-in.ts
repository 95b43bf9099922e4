// The demo's engine when no model can run: an engine module (model: { engine: 'module', url })
// that the worker imports. It reads the request as a model would, through a few rules about the
// sample page (understand.ts), calls the page's tools, answers from their results (answer.ts),
// and streams every word with a delay so that streaming and Stop can be seen. It is labelled
// as what it is wherever the model is named.
import type { EngineModuleEngine, ModelDelta, ModelRequest } from '../../src/index';
import { estimateTokens } from '../../src/model/token-estimate';
import { answerFrom, lastOutcomes } from './answer';
import { understand } from './understand';

export interface StandInOptions {
  /** Milliseconds before each streamed token (default 30). */
  tokenDelayMs?: number;
  /** Milliseconds before the first token of each step, as a model reads its prompt (default 0). */
  readDelayMs?: number;
}

/** As llama.cpp does on the CPU: the prompt read in a few batches, each said when it is read. */
const READ_BATCHES = 4;

export const STAND_IN_LABEL = 'Demo mode: no AI model is running';

export default function createStandIn({ tokenDelayMs = 30, readDelayMs = 0 }: StandInOptions = {}): EngineModuleEngine {
  return {
    info: { modelId: 'demo-stand-in', label: STAND_IN_LABEL, contextWindow: 8192, nativeToolCalls: true },
    generate: (request, signal) => respond(request, tokenDelayMs, readDelayMs, signal),
  };
}

async function* respond(
  request: ModelRequest,
  delayMs: number,
  readDelayMs: number,
  signal?: AbortSignal,
): AsyncGenerator<ModelDelta> {
  const promptTokens = estimateTokens(JSON.stringify(request.messages));
  yield* read(promptTokens, readDelayMs, signal);
  const last = request.messages.at(-1);
  const usage = (completion: string) => ({ promptTokens, completionTokens: estimateTokens(completion) });
  let text: string;
  if (last?.role === 'tool') {
    text = answerFrom(lastOutcomes(request.messages));
  } else {
    const understood = understand(last?.role === 'user' ? last.content : '');
    const offered = new Set(request.allowedTools ?? request.tools.map((tool) => tool.name));
    const missing =
      understood.kind === 'calls' ? understood.calls.filter((call) => !offered.has(call.name)).map((c) => c.name) : [];
    const reasoning =
      understood.kind === 'calls'
        ? `Demo mode rule “${understood.rule}” matched: ${understood.calls.map((call) => call.name).join(', ')}.`
        : `Demo mode rule “${understood.rule}”.`;
    yield* stream('reasoning', `${reasoning}\n`, 0, signal);
    if (understood.kind === 'calls' && request.toolChoice !== 'none' && missing.length === 0) {
      // As a model's stream does: each call is named as soon as its name is written, then read whole at the end.
      for (const call of understood.calls) {
        yield { type: 'tool-call-start', name: call.name };
        await pause(delayMs * 4, signal);
      }
      for (const call of understood.calls) yield { type: 'tool-call', call };
      yield { type: 'finish', reason: 'tool-calls', usage: usage(JSON.stringify(understood.calls)) };
      return;
    }
    text =
      understood.kind === 'say'
        ? understood.text
        : `I understood “${understood.rule}”, but this step does not offer ${missing.join(', ') || 'tools'}, so I cannot do it now.`;
  }
  yield* stream('text', text, delayMs, signal);
  yield { type: 'finish', reason: signal?.aborted ? 'abort' : 'stop', usage: usage(text) };
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return ms > 0 && !signal?.aborted ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** Word by word, as a model streams tokens; ends early when the run is stopped. */
async function* stream(
  type: 'text' | 'reasoning',
  text: string,
  delayMs: number,
  signal?: AbortSignal,
): AsyncGenerator<ModelDelta> {
  for (const token of text.match(/\S+\s*|\s+/g) ?? []) {
    if (signal?.aborted) return;
    await pause(delayMs, signal);
    yield { type, text: token };
  }
}

async function* read(tokens: number, ms: number, signal?: AbortSignal): AsyncGenerator<ModelDelta> {
  if (ms <= 0) return;
  for (let batch = 0; batch < READ_BATCHES; batch++) {
    yield { type: 'prompt-read', read: Math.floor((tokens * batch) / READ_BATCHES), of: tokens };
    await pause(ms / READ_BATCHES, signal);
  }
  yield { type: 'prompt-read', read: tokens, of: tokens };
}
