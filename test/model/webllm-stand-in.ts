/**
 * A stand-in for web-llm's engine (the part of MLCEngineInterface we use),
 * replaying recorded chunk sequences in web-llm 0.2.86's shapes: text deltas,
 * tool_calls only in the last chunk, usage in a chunk with no choices, and
 * finish_reason 'abort' after interruptGenerate().
 */
import type {
  ChatCompletionChunk,
  ChatCompletionFinishReason,
  ChatCompletionRequestStreaming,
  InitProgressCallback,
} from '@mlc-ai/web-llm';
import type { WebLLMEngineLike } from '../../src/model/engines/webllm/webllm-engine';

export interface Recording {
  contents: string[];
  toolCalls?: { name: string; arguments: string }[];
  finish: ChatCompletionFinishReason;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Thrown after the content, as web-llm throws when it cannot parse Hermes output. */
  throwName?: string;
}

export function chunk(
  delta: ChatCompletionChunk.Choice.Delta,
  finish: ChatCompletionFinishReason | null = null,
): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

export class StandInEngine implements WebLLMEngineLike {
  requests: ChatCompletionRequestStreaming[] = [];
  reloaded: string[] = [];
  unloads = 0;
  interrupts = 0;
  progress?: InitProgressCallback;
  /** Called inside reload(): report progress, fail, or wait. */
  onReload: (engine: StandInEngine) => Promise<void> = async () => {};
  private interrupted = false;

  constructor(private readonly recordings: Recording[] = []) {}

  setInitProgressCallback = (callback: InitProgressCallback) => {
    this.progress = callback;
  };

  reload = async (modelId: string | string[]) => {
    this.reloaded.push(String(modelId));
    await this.onReload(this);
  };

  unload = async () => {
    this.unloads += 1;
  };

  interruptGenerate = () => {
    this.interrupts += 1;
    this.interrupted = true;
  };

  chatCompletion = async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
    this.requests.push(structuredClone(request));
    const recording = this.recordings.shift();
    if (!recording) throw new Error('stand-in has no recording left');
    this.interrupted = false;
    return this.replay(recording);
  };

  private async *replay(recording: Recording): AsyncGenerator<ChatCompletionChunk> {
    for (const content of recording.contents) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (this.interrupted) break;
      yield chunk({ role: 'assistant', content });
    }
    if (recording.throwName) {
      const error = new Error('Internal error: error encountered when parsing outputMessage for function calling.');
      error.name = recording.throwName;
      throw error;
    }
    const finish = this.interrupted ? 'abort' : recording.finish;
    const toolCalls =
      finish === 'tool_calls'
        ? recording.toolCalls?.map((call, index) => ({ index, type: 'function' as const, function: call }))
        : undefined;
    yield chunk(toolCalls ? { role: 'assistant', tool_calls: toolCalls } : {}, finish);
    if (recording.usage) {
      yield {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'm',
        choices: [],
        usage: { ...recording.usage, total_tokens: 0, extra: {} as never },
      };
    }
  }
}
