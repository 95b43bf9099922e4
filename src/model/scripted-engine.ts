/**
 * Replays given turns instead of running a model: for tests, benchmarks and
 * the demo's no-WebGPU tour. Labelled as scripted wherever it shows.
 */
import { AgentError } from '../errors';
import type { ModelDelta, ModelEngine, ModelInfo, ModelRequest, ScriptedTurn } from './engine';

export class ScriptedEngine implements ModelEngine {
  readonly info: ModelInfo;
  private next = 0;

  constructor(private readonly turns: ScriptedTurn[], contextWindow = 8192) {
    this.info = { engine: 'scripted', modelId: 'scripted', label: 'Scripted (no model)', contextWindow, nativeToolCalls: true };
  }

  async load(onProgress?: (p: { progress: number; text: string }) => void): Promise<void> {
    onProgress?.({ progress: 1, text: 'Scripted engine ready (no model weights).' });
  }

  async *generate(_request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    const turn = this.turns[this.next];
    if (!turn) {
      throw new AgentError(
        'script-exhausted',
        `The scripted engine has no turn left (it had ${this.turns.length}). Add a turn to model.turns for every model step the run takes.`,
      );
    }
    this.next += 1;
    if (turn.delayMs) await sleep(turn.delayMs, signal);
    if ('raw' in turn) throw new AgentError('model-failed', 'Raw scripted turns need the tool-call protocol parser.');
    if (turn.text) yield { type: 'text', text: turn.text };
    for (const call of turn.toolCalls ?? []) yield { type: 'tool-call', call: { ...call } };
    yield { type: 'finish', reason: turn.toolCalls?.length ? 'tool-calls' : 'stop' };
  }

  countTokens(text: string): number {
    return Math.ceil(text.length / 4);
  }

  async dispose(): Promise<void> {}
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new AgentError('aborted', 'The run was aborted.'));
    }, { once: true });
  });
}
