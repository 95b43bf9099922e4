/**
 * The tool-call protocol's costs, each beside a peer from the same run:
 * parsing a model's turn (vs bare JSON.parse of the same calls), streaming
 * hold-back per chunk (vs plain concatenation), reading a megabyte of model
 * output through the whole streaming path (vs concatenating it), grammar compilation in
 * web-xgrammar (structural tag vs the JSON-schema fallback), and the prompt
 * tokens the tool section costs (vs pasting the declarations as JSON).
 */
import { Grammar } from '@mlc-ai/web-xgrammar';
import { planToolCalls } from '../src/model/formats/tool-call-plan';
import { readModelOutput } from '../src/model/readers/read-model-output';
import { ToolCallStream } from '../src/model/readers/stream-tool-calls';
import { callOrAnswerSchema } from '../src/model/tool-grammar';
import { describeTools } from '../src/model/tool-prompt';
import { estimateTokens } from '../src/model/token-estimate';
import { benchTools } from './tool-set';
import { measure, type BenchRow, type BenchSuite } from './harness';
import { OUTPUT_VOCABULARY } from '../src/model/formats/output-vocabulary';

const suite: BenchSuite = async () => {
  const rows: BenchRow[] = [];
  const tools = benchTools(3);
  const bodies = [
    { name: 'tool_0', arguments: { text: 'milk', count: 2 } },
    { name: 'tool_1', arguments: { text: 'eggs' } },
  ].map((c) => JSON.stringify(c));
  const turn = `Sure.\n${bodies.map((b) => `<tool_call>\n${b}\n</tool_call>`).join('\n')}`;

  const parse = await measure(
    () => {
      for (let i = 0; i < 100; i++) readModelOutput(turn, { vocabulary: OUTPUT_VOCABULARY, tools });
    },
    { iterations: 30 },
  );
  const bare = await measure(
    () => {
      for (let i = 0; i < 100; i++) bodies.forEach((b) => JSON.parse(b));
    },
    { iterations: 30 },
  );
  rows.push({
    group: 'model',
    name: 'parse a Hermes turn with 2 calls (×100)',
    median: parse.median,
    p95: parse.p95,
    unit: 'ms',
    peer: { name: 'JSON.parse of the 2 bodies (×100)', median: bare.median },
  });

  const chunks = Array.from({ length: 2000 }, (_, i) => (i % 50 === 0 ? ' <b>' : 'word '));
  const streamed = await measure(
    () => {
      const s = new ToolCallStream({ vocabulary: OUTPUT_VOCABULARY, tools });
      for (const c of chunks) s.push(c);
      s.end();
    },
    { iterations: 20 },
  );
  const concat = await measure(
    () => {
      let s = '';
      for (const c of chunks) s += c;
      return s;
    },
    { iterations: 20 },
  );
  rows.push({
    group: 'model',
    name: 'stream 2000 chunks with call hold-back',
    median: streamed.median,
    p95: streamed.p95,
    unit: 'ms',
    peer: { name: 'string concatenation', median: concat.median },
  });

  // A model that babbles: prose with the odd marker that turns out to be prose, and one call at the very end.
  const megabyte = oneMegabyteOfOutput();
  const megaChunks = megabyte.match(/[\s\S]{1,16}/g)!;
  const readMega = await measure(
    () => {
      const s = new ToolCallStream({ vocabulary: OUTPUT_VOCABULARY, tools });
      for (const c of megaChunks) s.push(c);
      if (s.end().calls.length !== 1) throw new Error('the call at the end of the megabyte was not read');
    },
    { iterations: 5, warmup: 1 },
  );
  const concatMega = await measure(
    () => {
      let s = '';
      for (const c of megaChunks) s += c;
      return s.length;
    },
    { iterations: 5, warmup: 1 },
  );
  rows.push({
    group: 'model',
    name: `read 1 MB of model output (${megaChunks.length} chunks, streamed)`,
    median: readMega.median,
    p95: readMega.p95,
    unit: 'ms',
    peer: { name: 'plain string concatenation of the chunks', median: concatMega.median },
  });

  for (const count of [3, 20]) {
    const set = benchTools(count);
    const structuralTag = planToolCalls('hermes', set).responseFormat!.structural_tag as never;
    const tag = await measure(async () => (await Grammar.fromStructuralTag(structuralTag)).dispose(), {
      iterations: 10,
      warmup: 2,
    });
    const json = await measure(
      async () => (await Grammar.fromJSONSchema(JSON.stringify(callOrAnswerSchema(set)))).dispose(),
      { iterations: 10, warmup: 2 },
    );
    rows.push({
      group: 'model',
      name: `build structural-tag grammar, ${count} tools`,
      median: tag.median,
      p95: tag.p95,
      unit: 'ms',
      peer: { name: 'JSON-schema fallback grammar', median: json.median },
    });
  }

  const section = estimateTokens(describeTools(tools));
  const naive = estimateTokens(JSON.stringify(tools));
  rows.push({
    group: 'model',
    name: 'prompt tokens for 3 tools (estimate)',
    median: section,
    unit: 'tokens',
    peer: { name: 'declarations pasted as JSON', median: naive },
  });
  return rows;
};

function oneMegabyteOfOutput(): string {
  const sentence = 'The model keeps talking about functools and the <b>tags</b> it saw, [notes], {braces} and more. ';
  let text = '';
  while (text.length < 1024 * 1024) text += sentence;
  return `${text}\n<tool_call>\n{"name": "tool_0", "arguments": {"text": "done"}}\n</tool_call>`;
}

export default suite;
