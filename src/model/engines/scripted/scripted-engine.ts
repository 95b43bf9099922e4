/**
 * Replays given turns instead of running a model: for tests, benchmarks and
 * the demo's no-WebGPU tour. Labelled as scripted wherever it shows.
 *
 * A turn is either structured (`{ text, toolCalls }`, given to the loop as is)
 * or `{ raw }`: text as a local model would write it, which goes through the
 * same tool-call parser as a web-llm model's output. So the protocol (formats,
 * repair, unknown tools, errors the model can correct from) runs end to end
 * without weights.
 */
import { AgentError, runAbortedError } from '../../../errors';
import type { ModelDelta, ModelEngine, ModelInfo, ModelProgress, ModelRequest, PastEvent } from '../../engine';
import type { ScriptedTurn } from '../../model-options';
import { genericJson } from '../../formats/generic-json';
import { allowedNames } from '../../formats/tool-call-plan';
import type { ToolFormat } from '../../formats/tool-format';
import { ToolCallStream } from '../../readers/stream-tool-calls';
import { estimateTokens } from '../../token-estimate';
import type { Usage } from '../../usage';
import { OUTPUT_VOCABULARY } from '../../formats/output-vocabulary';

export class ScriptedEngine implements ModelEngine {
  readonly info: ModelInfo;
  private next = 0;

  constructor(
    private readonly turns: ScriptedTurn[],
    contextWindow = 8192,
    private readonly format: ToolFormat = genericJson,
  ) {
    this.info = {
      engine: 'scripted',
      modelId: 'scripted',
      label: 'Scripted (no model)',
      contextWindow,
      nativeToolCalls: true,
      toolFormat: format.name,
    };
  }

  async load(onProgress?: (p: ModelProgress) => void): Promise<void> {
    onProgress?.({ progress: 1, text: 'Scripted engine ready (no model weights).' });
  }

  /**
   * Continues the script after a restart: the turns already played are the
   * longest run of this script's turns found, in order, among the model's
   * own outputs in the history. Another script's session starts at its first turn.
   */
  resume(history: readonly PastEvent[]): void {
    let played = 0;
    for (const event of history) {
      if (
        played < this.turns.length &&
        event.raw !== undefined &&
        event.raw === rawOf(this.turns[played]!, this.format)
      )
        played++;
    }
    this.next = Math.max(this.next, played);
  }

  async *generate(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    const turn = this.turns[this.next];
    if (!turn) {
      throw new AgentError(
        'script-exhausted',
        `The scripted engine has no turn left (it had ${this.turns.length}). Add a turn to model.turns for every model step the run takes.`,
      );
    }
    this.next += 1;
    if (turn.delayMs) await sleep(turn.delayMs, signal);
    // No model counts tokens here: usage is the same estimate the context guard uses, so telemetry has figures.
    const promptTokens = sumOfEstimates(request.messages) + sumOfEstimates(request.tools);
    if ('raw' in turn) {
      yield* rawTurn(turn.raw, request, this.format, {
        promptTokens,
        completionTokens: estimateTokens(turn.raw),
        estimated: true,
      });
      return;
    }
    if (turn.text) yield { type: 'text', text: turn.text };
    for (const call of turn.toolCalls ?? []) yield { type: 'tool-call', call: { ...call } };
    const completionTokens = estimateTokens((turn.text ?? '') + JSON.stringify(turn.toolCalls ?? []));
    yield {
      type: 'finish',
      reason: turn.toolCalls?.length ? 'tool-calls' : 'stop',
      usage: { promptTokens, completionTokens, estimated: true },
      raw: rawOf(turn, this.format),
    };
  }

  countTokens(text: string): number {
    return estimateTokens(text);
  }

  async dispose(): Promise<void> {}
}

/** What a turn says as a model's own text: a raw turn as written, a structured one as its format writes it. */
function rawOf(turn: ScriptedTurn, format: ToolFormat): string {
  if ('raw' in turn) return turn.raw;
  return format.writeTurn(turn.text ?? '', turn.toolCalls ?? []);
}

/** A raw turn as a model would stream it, split in small pieces so the streaming reader is exercised too. */
function* rawTurn(raw: string, request: ModelRequest, format: ToolFormat, usage: Usage): Generator<ModelDelta> {
  const stream = new ToolCallStream({
    vocabulary: OUTPUT_VOCABULARY,
    tools: request.tools,
    allowed: allowedNames(request.tools, request),
    example: format.example,
  });
  // Pieces of a few characters, as a tokenizer decodes; large outputs in larger pieces, so a test of a
  // megabyte stays about reading and not about a million partial events.
  const piece = Math.max(7, Math.ceil(raw.length / 2000));
  for (let i = 0; i < raw.length; i += piece) yield* stream.push(raw.slice(i, i + piece));
  const rest = stream.end('stop');
  if (rest.reasoning) yield { type: 'reasoning', text: rest.reasoning };
  if (rest.text) yield { type: 'text', text: rest.text };
  for (const call of rest.calls) yield { type: 'tool-call', call };
  for (const error of rest.errors) yield { type: 'tool-call-error', ...error };
  yield { type: 'finish', reason: rest.calls.length || rest.errors.length ? 'tool-calls' : 'stop', usage, raw };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(runAbortedError());
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(runAbortedError());
      },
      { once: true },
    );
  });
}

/** Each message's and tool's estimate, made once: a run sends the same objects every step. */
const estimates = new WeakMap<object, number>();

function sumOfEstimates(values: readonly object[]): number {
  let sum = 0;
  for (const value of values) {
    let tokens = estimates.get(value);
    if (tokens === undefined) estimates.set(value, (tokens = estimateTokens(JSON.stringify(value))));
    sum += tokens;
  }
  return sum;
}
