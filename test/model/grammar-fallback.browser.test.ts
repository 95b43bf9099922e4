/**
 * A schema the grammar engine cannot compile: web-llm compiles the step's
 * structural tag before the first token and fails with GrammarMatcherInitError
 * (lib/index.js, prepareGrammarMatcherForSampling). The stand-in below does
 * the same with web-xgrammar, the engine web-llm embeds, so the failure is
 * xgrammar's own. The step must still run, its calls still be read and
 * checked, and one notice must say what happened.
 */
import { describe, expect, it } from 'vitest';
import { Grammar } from '@mlc-ai/web-xgrammar';
import type { ChatCompletionChunk, ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import type { ModelDelta } from '../../src/model/engine';
import { WebLLMEngine } from '../../src/model/webllm-engine';
import { StandInEngine, type Recording } from './webllm-stand-in';
import { tool, tools } from './tools-fixture';

/** A stand-in whose chatCompletion compiles the step's structural tag first, as web-llm does. */
function compilingStandIn(recordings: Recording[], compiled: boolean[]): StandInEngine {
  const standIn = new StandInEngine(recordings);
  const replay = standIn.chatCompletion;
  standIn.chatCompletion = async (request: ChatCompletionRequestStreaming) => {
    const chunks = await replay(request);
    const format = request.response_format;
    return {
      async *[Symbol.asyncIterator](): AsyncGenerator<ChatCompletionChunk> {
        if (format?.type === 'structural_tag') {
          try {
            (await Grammar.fromStructuralTag(format.structural_tag as never)).dispose();
            compiled.push(true);
          } catch (cause) {
            compiled.push(false);
            const error = new Error(
              `Failed to initialize the grammar matcher for response format \`structural_tag\`: ${String(cause)}`,
            );
            error.name = 'GrammarMatcherInitError';
            throw error;
          }
        }
        yield* chunks;
      },
    };
  };
  return standIn;
}

async function collect(stream: AsyncIterable<ModelDelta>): Promise<ModelDelta[]> {
  const out: ModelDelta[] = [];
  for await (const delta of stream) out.push(delta);
  return out;
}

// An unterminated character class: not a construct our up-front check knows, so only the compile finds it.
const broken = tool('lookup', {
  type: 'object',
  properties: { code: { type: 'string', pattern: '[a-' } },
  required: ['code'],
});

describe('a grammar web-llm cannot compile', () => {
  it('falls back to the tool names only, reads and checks the calls anyway, and says so once', async () => {
    const recordings: Recording[] = [
      { contents: ['unused'], finish: 'stop' },
      { contents: ['<tool_call>\n{"name": "lookup", "arguments": {"code": "a1"}}\n</tool_call>'], finish: 'stop' },
    ];
    const compiled: boolean[] = [];
    const standIn = compilingStandIn(recordings, compiled);
    const engine = new WebLLMEngine({
      modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      createEngine: () => standIn,
      probeGpu: async () => ({ available: true, features: [], shaderF16: false }),
    });
    await engine.load();
    const deltas = await collect(
      engine.generate({ messages: [{ role: 'user', content: 'look up a1' }], tools: [broken, ...tools] }),
    );
    expect(compiled).toEqual([false, true]);
    const notices = deltas.filter((d) => d.type === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ code: 'grammar-fallback', message: expect.stringContaining('lookup') });
    expect(deltas).toContainEqual({ type: 'tool-call', call: { name: 'lookup', args: { code: 'a1' } } });
  });
});
