/**
 * Our grammars in llama.cpp's GBNF, proven with the oracle the project
 * already has: for every tool-call format, the tiny random-weight model
 * (with that family's real vocabulary) decodes under the GBNF the wllama
 * engine sends, and everything it writes must be
 * - accepted by web-xgrammar under the structural tag web-llm would have
 *   used (the GBNF holds the same language, or less): whole when the model
 *   stopped, as a beginning when the length limit cut it off, and
 * - read by our reader as exactly the calls the independent oracle reads
 *   (structural-tag-oracle.ts), each valid under its tool's schema; a call cut
 *   off by the length limit never runs.
 *
 * Two ways in per format: a required call (the grammar holds from the first
 * token) and 'auto' (llama.cpp's lazy grammar, from the family's trigger on;
 * the tiny model's random weights write that format's markup more often than
 * chance, so that it opens calls; scripts/tiny-gguf.mjs). Each format's tally
 * is printed.
 */
import { describe, expect, it } from 'vitest';
import { Grammar, GrammarCompiler, GrammarMatcher, Testings, TokenizerInfo } from '@mlc-ai/web-xgrammar';
import type { ModelDelta, ModelEngine, ModelToolCall } from '../../../src/model/engine';
import { createEngine } from '../../../src/model/engines/create-engine';
import { planToolCalls } from '../../../src/model/formats/tool-call-plan';
import { validateWithJsonSchema } from '../../../src/tools/validate-args';
import { formatsUnderProof, planFormat, type FormatUnderProof } from '../grammar-proof/formats-under-proof';
import { proofTools } from '../grammar-proof/proof-tools';

/** Generations per format and way in: few, for `npm test` (the outputs are the same every run: fixed seeds); `npm run bench` runs more. */
const GENERATIONS = { required: 1, auto: 4 };
const MAX_TOKENS = 80;

interface Tally {
  /** Calls opened (written whole, or cut off by the length limit), by way in. */
  byWay: Record<'required' | 'auto', number>;
  generations: number;
  stopped: number;
  calls: number;
  valid: number;
  cutOff: number;
  strict: number;
  problems: string[];
}

async function generate(engine: ModelEngine, choice: 'auto' | 'required', seed: number) {
  const deltas: ModelDelta[] = [];
  for await (const delta of engine.generate({
    messages: [{ role: 'user', content: `Request number ${seed}.` }],
    tools: proofTools,
    toolChoice: choice,
    sampling: { maxTokens: MAX_TOKENS, seed, temperature: 1 },
  }))
    deltas.push(delta);
  return deltas;
}

describe.each(formatsUnderProof)('llama.cpp decoding $format under its GBNF ($family)', (proof: FormatUnderProof) => {
  it(`${GENERATIONS.required} required and ${GENERATIONS.auto} lazy generations: xgrammar accepts each, every call is read and valid`, async () => {
    const engine = createEngine({
      engine: 'wllama',
      // The family's vocabulary; the random weights write this format's markup more often than chance.
      url: `/models/tiny-${proof.tokenizer}-${proof.format}.gguf`,
      toolFormat: proof.format,
      // Sample from the whole distribution (llama.cpp keeps the top 40 tokens by default, where a random model's
      // markup rarely makes it among thousands of quotes).
      completion: { top_k: 0, top_p: 1, min_p: 0 },
    });
    await engine.load();
    const oracle = planFormat(proof, proofTools);
    const tally: Tally = {
      byWay: { required: 0, auto: 0 },
      generations: 0,
      stopped: 0,
      calls: 0,
      valid: 0,
      cutOff: 0,
      strict: 0,
      problems: [],
    };
    try {
      for (const choice of ['required', 'auto'] as const) {
        const structuralTag = planToolCalls(proof.format, proofTools, { toolChoice: choice }).responseFormat!
          .structural_tag;
        const grammar = await Grammar.fromStructuralTag(structuralTag as never);
        // A matcher reads text whatever the vocabulary: it says whether a cut-off output is a beginning xgrammar allows.
        const compiler = await GrammarCompiler.createGrammarCompiler(
          await TokenizerInfo.createTokenizerInfo(['</s>'], 'raw', false, 1, 0),
        );
        const matcher = await GrammarMatcher.createGrammarMatcher(
          await compiler.compileStructuralTag(structuralTag as never),
        );
        // …and it does refuse: the trigger followed by what no call starts with.
        expect(matcher._acceptString(`${proof.markup[0]}\u0001`)).toBe(false);
        for (let i = 0; i < GENERATIONS[choice]; i++) {
          const seed = 1000 * i + (choice === 'auto' ? 1 : 0);
          const deltas = await generate(engine, choice, seed);
          const finish = deltas.find((delta) => delta.type === 'finish')!;
          const raw = finish.raw ?? '';
          const say = (problem: string) =>
            tally.problems.push(`${choice} seed ${seed}: ${problem}\n  output: ${JSON.stringify(raw)}`);
          tally.generations++;
          if (deltas.some((delta) => delta.type === 'notice' && delta.code === 'grammar-strict')) tally.strict++;
          const read = deltas.flatMap((delta) => (delta.type === 'tool-call' ? [delta.call] : []));
          let expected;
          try {
            expected = oracle.expected(raw);
          } catch (error) {
            say(`the GBNF let through an output that breaks the format: ${(error as Error).message}`);
            continue;
          }
          tally.byWay[choice] += expected.calls.length + (expected.cut ? 1 : 0);
          for (const call of expected.calls) {
            tally.calls++;
            const tool = proofTools.find((t) => t.name === call.name);
            const check = tool ? validateWithJsonSchema(tool, call.args) : undefined;
            if (check?.ok) tally.valid++;
            else say(`a call to ${call.name} fails validation: ${check ? check.error.message : 'no such tool'}`);
          }
          matcher.reset();
          if (!matcher._acceptString(raw)) say('xgrammar refuses a beginning that llama.cpp let through');
          if (finish.type === 'finish' && finish.reason !== 'length') {
            tally.stopped++;
            if (!(await Testings.isGrammarAcceptString(grammar, raw)))
              say('xgrammar refuses what llama.cpp let through');
            const running = expected.calls.filter((call) => call.runs).map(({ name, args }) => ({ name, args }));
            if (JSON.stringify(strip(read)) !== JSON.stringify(running))
              say(`read ${JSON.stringify(strip(read))}, the oracle reads ${JSON.stringify(running)}`);
          } else {
            if (expected.cut) tally.cutOff++;
            if (read.length) say(`cut off by the length limit, yet ran ${JSON.stringify(strip(read))}`);
          }
        }
        grammar.dispose();
        matcher.dispose();
      }
    } finally {
      await engine.dispose();
    }
    console.info(
      `${proof.format} (${proof.family}): ${tally.generations} generations, ${tally.stopped} stopped, ${tally.calls} calls written (calls opened: ${tally.byWay.required} required, ${tally.byWay.auto} after a lazy trigger), ${tally.valid} valid, ${tally.cutOff} cut off inside a call, ${tally.strict} went on under the strict grammar, ${tally.problems.length} problems`,
    );
    expect(tally.problems).toEqual([]);
    // The proof says something only if the model wrote calls, in both ways in.
    expect(tally.byWay.required).toBeGreaterThan(0);
    expect(tally.byWay.auto).toBeGreaterThan(0);
  }, 240_000);
});

function strip(calls: ModelToolCall[]): { name: string; args: unknown }[] {
  return calls.map(({ name, args }) => ({ name, args }));
}
