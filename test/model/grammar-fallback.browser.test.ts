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
import { WebLLMEngine } from '../../src/model/engines/webllm/webllm-engine';
import { StandInEngine, type Recording } from './webllm-stand-in';
import { tool, tools } from './tools-fixture';

/**
 * A stand-in whose chatCompletion compiles the step's structural tag first, as web-llm does.
 * `refuseFirst`: its first grammar fails as an xgrammar refusal does. No schema our plan builds is
 * refused by this xgrammar any more (what it cannot hold is relaxed up front), but web-llm embeds its
 * own xgrammar build, which may refuse what this one compiles: the runtime must survive that too.
 */
function compilingStandIn(recordings: Recording[], compiled: boolean[], refuseFirst = false): StandInEngine {
  const standIn = new StandInEngine(recordings);
  const replay = standIn.chatCompletion;
  standIn.chatCompletion = async (request: ChatCompletionRequestStreaming) => {
    const chunks = await replay(request);
    const format = request.response_format;
    return {
      async *[Symbol.asyncIterator](): AsyncGenerator<ChatCompletionChunk> {
        if (format?.type === 'structural_tag') {
          try {
            if (refuseFirst && compiled.length === 0) throw new Error('[CompileStructuralTag] Aborted()');
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

// An unterminated character class: the plan finds it, and no grammar of it reaches xgrammar.
const broken = tool('lookup', {
  type: 'object',
  properties: { code: { type: 'string', pattern: '[a-' } },
  required: ['code'],
});

const lookupCall = '<tool_call>\n{"name": "lookup", "arguments": {"code": "a1"}}\n</tool_call>';

async function runStep(recordings: Recording[], refuseFirst: boolean) {
  const compiled: boolean[] = [];
  const standIn = compilingStandIn(recordings, compiled, refuseFirst);
  const engine = new WebLLMEngine({
    modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    createEngine: () => standIn,
    probeGpu: async () => ({ available: true, features: [], shaderF16: false }),
  });
  await engine.load();
  const deltas = await collect(
    engine.generate({ messages: [{ role: 'user', content: 'look up a1' }], tools: [broken, ...tools] }),
  );
  return { compiled, deltas, notices: deltas.filter((d) => d.type === 'notice') };
}

describe('a schema the grammar cannot hold', () => {
  it('is relaxed before the grammar is compiled: the call is read and checked anyway, and one notice says so', async () => {
    const { compiled, deltas, notices } = await runStep([{ contents: [lookupCall], finish: 'stop' }], false);
    expect(compiled).toEqual([true]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ code: 'grammar-fallback', message: expect.stringContaining('lookup') });
    expect(deltas).toContainEqual({ type: 'tool-call', call: { name: 'lookup', args: { code: 'a1' } } });
  });

  it("refused by web-llm's grammar engine at run time: the step runs again on tool names only, and one notice says so", async () => {
    const { compiled, deltas, notices } = await runStep(
      [
        { contents: ['unused'], finish: 'stop' },
        { contents: [lookupCall], finish: 'stop' },
      ],
      true,
    );
    expect(compiled).toEqual([false, true]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      code: 'grammar-fallback',
      message: expect.stringContaining('could not compile'),
    });
    expect(deltas).toContainEqual({ type: 'tool-call', call: { name: 'lookup', args: { code: 'a1' } } });
  });
});
