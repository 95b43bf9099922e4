/**
 * A schema xgrammar cannot compile (issue #12): the run still works, the call
 * is read and validated after generation, and one notice says so. The
 * engine is the runtime's WebLLMEngine; in place of web-llm stands a small
 * engine that does what web-llm does with response_format (compiles it with
 * the real web-xgrammar, and on failure throws its GrammarMatcherInitError
 * before the first token) and checks that the output it replays is one the
 * grammar allows.
 */
import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk, ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import type { ModelDelta, ModelRequest } from '../../../src/model/engine';
import { WebLLMEngine, type WebLLMEngineLike } from '../../../src/model/engines/webllm/webllm-engine';
import { validateWithJsonSchema } from '../../../src/tools/validate-args';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { Grammar, Testings } from './xgrammar';
import { zodShapeTools } from './zod-shapes';
import { chunk } from '../webllm-stand-in';

const gpu = {
  available: true,
  features: ['shader-f16'],
  shaderF16: true,
  adapter: { vendor: 'test', architecture: 'gpu', device: '', description: '', isFallbackAdapter: false },
};

/** web-llm's handling of response_format, with the real grammar engine; the model's output is given. */
class GrammarEnforcingEngine implements WebLLMEngineLike {
  readonly refused: string[] = [];
  readonly grammars: unknown[] = [];
  /** `output`: what the model writes, whichever grammar it gets. */
  constructor(private readonly output: string) {}
  setInitProgressCallback = () => {};
  reload = async () => {};
  unload = async () => {};
  interruptGenerate = () => {};
  chatCompletion = async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
    const format = request.response_format;
    const { output, refused, grammars } = this;
    return (async function* () {
      if (format?.type === 'structural_tag') {
        const grammar = await Grammar.fromStructuralTag(format.structural_tag as never).catch((cause: unknown) => {
          refused.push(String(cause));
          const error = new Error(
            `Failed to initialize the grammar matcher for response format \`structural_tag\`: ${(cause as Error).message}`,
          );
          error.name = 'GrammarMatcherInitError';
          throw error;
        });
        grammars.push(format.structural_tag);
        if (!(await Testings.isGrammarAcceptString(grammar, output)))
          throw new Error(`the test's output is not one the grammar allows: ${output}`);
        grammar.dispose();
      }
      yield chunk({ role: 'assistant', content: output });
      yield chunk({}, 'stop');
    })();
  };
}

async function run(modelId: string, tools: ToolDeclaration[], output: string) {
  const standIn = new GrammarEnforcingEngine(output);
  const engine = new WebLLMEngine({ modelId, createEngine: () => standIn, probeGpu: async () => gpu });
  await engine.load();
  const request: ModelRequest = { messages: [{ role: 'user', content: 'Go.' }], tools, sampling: { maxTokens: 512 } };
  const deltas: ModelDelta[] = [];
  for await (const delta of engine.generate(request)) deltas.push(delta);
  const notices = deltas.filter((d): d is Extract<ModelDelta, { type: 'notice' }> => d.type === 'notice');
  const calls = deltas.flatMap((d) => (d.type === 'tool-call' ? [d.call] : []));
  return { standIn, notices, calls };
}

const tool = (name: string) => zodShapeTools.find((t) => t.name === name)!;

describe('a schema the grammar cannot hold', () => {
  // z.string().regex(/^(?=.*\d)(?=.*[a-z]).{8,}$/): a lookahead, which xgrammar refuses.
  const withLookahead = [tool('string_checks'), tool('enums')];
  const checks = (password: string) =>
    `<tool_call>\n{"name": "string_checks", "arguments": ${JSON.stringify({
      name: 'Ada',
      code: 'ABC-1234',
      site: 'https://example.org',
      file: 'a.pdf',
      query: 'a@b',
      password,
    })}}\n</tool_call>`;

  it('is relaxed up front: the call still runs, is validated after generation, and one notice says so', async () => {
    const { standIn, notices, calls } = await run(
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      withLookahead,
      checks('abc12345'),
    );
    expect(standIn.refused).toEqual([]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ code: 'grammar-fallback', message: expect.stringContaining('string_checks') });
    expect(calls).toHaveLength(1);
    expect(validateWithJsonSchema(tool('string_checks'), calls[0].args)).toMatchObject({ ok: true });
  });

  it('lets through arguments the validator then refuses, with a message that says what to fix', async () => {
    const { calls } = await run('Qwen2.5-0.5B-Instruct-q4f32_1-MLC', withLookahead, checks('short'));
    const validation = validateWithJsonSchema(tool('string_checks'), calls[0].args);
    expect(validation.ok).toBe(false);
    if (!validation.ok) expect(validation.error.message).toMatch(/password.*pattern/);
  });

  it('the tools it does not concern stay constrained', async () => {
    const { standIn } = await run('Qwen2.5-0.5B-Instruct-q4f32_1-MLC', withLookahead, checks('abc12345'));
    const grammar = await Grammar.fromStructuralTag(standIn.grammars[0] as never);
    const call = (args: unknown) =>
      `<tool_call>\n{"name": "enums", "arguments": ${JSON.stringify(args)}}\n</tool_call>`;
    expect(await Testings.isGrammarAcceptString(grammar, call({ status: 'open', level: 3 }))).toBe(true);
    expect(await Testings.isGrammarAcceptString(grammar, call({ status: 'gone', level: 3 }))).toBe(false);
  });

  // A recursive zod schema ($defs, $ref) inside SmolLM2's list of calls: xgrammar's own JSON Schema
  // converter aborted on it there; the plan writes the recursion as a rule of its own grammar.
  it('a recursive schema in a list of calls compiles: the call is constrained, runs, and no notice is needed', async () => {
    const output = `<tool_call>${JSON.stringify([{ name: 'recursive', arguments: { tree: { label: 'a', children: [] } } }])}</tool_call>`;
    const { standIn, notices, calls } = await run(
      'SmolLM2-360M-Instruct-q4f32_1-MLC',
      [tool('recursive'), tool('enums')],
      output,
    );
    expect(standIn.refused).toEqual([]);
    expect(notices).toEqual([]);
    expect(calls).toEqual([{ name: 'recursive', args: { tree: { label: 'a', children: [] } } }]);
    const grammar = await Grammar.fromStructuralTag(standIn.grammars[0] as never);
    const list = (args: unknown) =>
      `<tool_call>${JSON.stringify([{ name: 'recursive', arguments: args }])}</tool_call>`;
    expect(
      await Testings.isGrammarAcceptString(
        grammar,
        list({ tree: { label: 'a', children: [{ label: 'b', children: [] }] } }),
      ),
    ).toBe(true);
    expect(
      await Testings.isGrammarAcceptString(grammar, list({ tree: { label: 'a', children: [{ label: 7 }] } })),
    ).toBe(false);
  });
});
