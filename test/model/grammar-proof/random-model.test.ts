/**
 * "The worst possible model" (issue #12): for each tool-call format, a model
 * that picks at random among the tokens the format's grammar allows, on the
 * family's real vocabulary, 300 times. Every call it writes must be read by
 * our reader and pass our argument validation, and nothing else may be read
 * as a call; a call cut off by the token limit must be answered as
 * unreadable. Any disagreement between grammar, reader and validator shows up
 * here with the seed that reproduces it: GRAMMAR_PROOF_SEED=<seed> reruns
 * that generation alone, GRAMMAR_PROOF_REPORT=1 prints each format's tally and every disagreement.
 */
import { describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { validateWithJsonSchema } from '../../../src/tools/validate-args';
import { GrammarCompiler, GrammarMatcher, TokenizerInfo, type CompiledGrammar, type Compiler } from './xgrammar';
import { decodingVocabulary } from './tokenizer-files';
import { RandomModel, type Generation } from './random-model';
import { formatsUnderProof, planFormat, type PlannedFormat } from './formats-under-proof';
import type { Expected } from './structural-tag-oracle';
import { proofTools } from './proof-tools';
import type { TokenizerPackage } from './vocabulary';

const GENERATIONS = 300;
const MAX_TOKENS = 96;
const onlySeed = process.env.GRAMMAR_PROOF_SEED ? Number(process.env.GRAMMAR_PROOF_SEED) : undefined;

interface Tally {
  generations: number;
  calls: number;
  read: number;
  valid: number;
  cutOff: number;
  tools: Set<string>;
}

describe.each(formatsUnderProof)('the worst possible model writing $format ($family)', (proof) => {
  it(`${GENERATIONS} random generations: every call is read and valid, a cut-off call never runs, nothing else is read as one`, async () => {
    const cpu = process.cpuUsage();
    const vocabulary = decodingVocabulary(proof.tokenizer);
    const planned = planFormat(proof, proofTools);
    const grammar = await compile(proof.tokenizer, planned.structuralTag);
    const matcher = await GrammarMatcher.createGrammarMatcher(grammar);
    const model = new RandomModel(matcher, vocabulary, {
      markup: proof.markup,
      maxTokens: proof.maxTokens ?? MAX_TOKENS,
    });

    const seeds =
      onlySeed === undefined ? Array.from({ length: GENERATIONS }, (_, i) => seedOf(proof.format, i)) : [onlySeed];
    const failures: string[] = [];
    const tally: Tally = { generations: 0, calls: 0, read: 0, valid: 0, cutOff: 0, tools: new Set() };
    for (const seed of seeds) {
      const generation = await model.generate(seed);
      const problems = check(planned, generation, tally);
      if (problems.length)
        failures.push(`seed ${seed}: ${problems.join('; ')}\n  output: ${JSON.stringify(generation.text)}`);
    }
    matcher.dispose();
    grammar.dispose();
    if (process.env.GRAMMAR_PROOF_REPORT)
      console.info(
        [
          `${proof.format} (${proof.family}): ${summary(tally, failures)}; ${(process.cpuUsage(cpu).user / 1e6).toFixed(1)} s of CPU`,
          ...failures,
        ].join('\n'),
      );

    expect(failures.slice(0, 5).join('\n'), `${failures.length} of ${seeds.length} generations`).toBe('');
    expect({ read: tally.read, valid: tally.valid }).toEqual({ read: tally.calls, valid: tally.calls });
    if (onlySeed === undefined) {
      // It proves something only if the model wrote many calls, to every tool, and some were cut off.
      expect(tally.calls).toBeGreaterThanOrEqual(40);
      expect([...tally.tools].sort()).toEqual(proofTools.map((t) => t.name).sort());
      expect(tally.cutOff).toBeGreaterThan(0);
    }
  }, 120_000);
});

/** One TokenizerInfo and compiler per tokenizer, shared by the formats of its family, as web-llm keeps one per model. */
const compilers = new Map<TokenizerPackage, Promise<Compiler>>();
async function compile(tokenizer: TokenizerPackage, structuralTag: unknown): Promise<CompiledGrammar> {
  let compiler = compilers.get(tokenizer);
  if (!compiler) {
    const vocabulary = decodingVocabulary(tokenizer);
    compiler = TokenizerInfo.createTokenizerInfo(
      vocabulary.tokens,
      vocabulary.vocabType,
      vocabulary.prependSpace,
      undefined,
      vocabulary.stopTokenIds,
    ).then((info) => GrammarCompiler.createGrammarCompiler(info));
    compilers.set(tokenizer, compiler);
  }
  return (await compiler).compileStructuralTag(structuralTag as never);
}

/**
 * A generation that stopped must have every call it wrote read, exactly, and nothing else; one
 * cut off by the token limit must run no call at all (each is answered as cut off). Every call the
 * grammar let the model write must pass validation, whether or not it runs.
 */
function check(planned: PlannedFormat, generation: Generation, tally: Tally): string[] {
  let expected: Expected;
  try {
    expected = planned.expected(generation.text);
  } catch (error) {
    return [`the grammar let through an output that breaks the format: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  if (expected.cut !== generation.cutInsideSpan)
    problems.push(
      `the grammar ${generation.cutInsideSpan ? 'was' : 'was not'} inside a call at the end, the text says otherwise`,
    );
  tally.generations++;
  tally.calls += expected.calls.length;
  if (expected.cut) tally.cutOff++;
  for (const call of expected.calls) {
    tally.tools.add(call.name);
    const declaration = proofTools.find((t) => t.name === call.name);
    const validation = declaration ? validateWithJsonSchema(declaration, call.args) : undefined;
    if (validation?.ok) tally.valid++;
    else
      problems.push(
        `the grammar let through a call to ${call.name} that fails validation: ${validation ? validation.error.message : 'no such tool'}`,
      );
  }

  const read = planned.read(generation.text, generation.finish);
  const got = read.calls.map(({ name, args }) => ({ name, args }));
  const running = expected.calls.filter((call) => call.runs).map(({ name, args }) => ({ name, args }));
  if (generation.finish === 'stop') {
    if (isDeepStrictEqual(got, running)) tally.read += expected.calls.length;
    else problems.push(`read ${JSON.stringify(got)}, the model wrote ${JSON.stringify(running)} to run`);
    if (read.errors.length)
      problems.push(`errors where every call was complete: ${read.errors.map((e) => e.message).join(' | ')}`);
  } else {
    if (!got.length) tally.read += expected.calls.length;
    else problems.push(`cut off by the token limit, yet ran ${JSON.stringify(got)}`);
    if ((running.length || expected.cutWouldRun) && !read.errors.length)
      problems.push('cut off by the token limit with calls written, yet nothing was answered as cut off');
  }
  return problems;
}

function summary(tally: Tally, failures: string[]): string {
  return `${tally.generations} generations, ${tally.calls} calls written, ${tally.read} read as written, ${tally.valid} valid, ${tally.cutOff} cut off inside a call, ${failures.length} generations disagree`;
}

/** A seed per format and generation, stable across runs. */
function seedOf(name: string, index: number): number {
  let hash = 2166136261;
  for (const ch of name) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619);
  return ((hash >>> 0) + index * 7919) >>> 0;
}
