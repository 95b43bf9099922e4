/** What agent.warmup() says for an engine that keeps no prompt read ahead, and why it cannot. */
import type { ModelInfo, WarmupResult } from './engine';

const WHY: Record<ModelInfo['engine'], string> = {
  webllm:
    'web-llm keeps its KV cache only for a conversation it answered (the same messages, then one more), not for the start of a prompt: nothing was read ahead.',
  scripted: 'The scripted engine replays its turns and reads no prompt: nothing was read ahead.',
  module: "A page's engine module (model: { engine: 'module' }) reads no prompt ahead: nothing was read.",
  wllama: 'This llama.cpp engine cannot read a prompt ahead: nothing was read.',
};

export function readAheadUnsupported(info: ModelInfo, ms = 0): WarmupResult {
  return {
    status: 'unsupported',
    promptTokens: 0,
    prefilledTokens: 0,
    cachedTokens: 0,
    ms,
    reason: WHY[info.engine] ?? WHY.module,
  };
}
