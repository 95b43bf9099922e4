/**
 * The toolkit graph at scale: building a graph of 10,000 tools and 2,000
 * actions, recommending with hops 2 on it, and what a graph saves in the
 * prompt of a 100-tool page (tool descriptions per step, with and without).
 */
import { ToolkitGraph } from '../src/toolkit/graph';
import { recommendIds } from '../src/toolkit/recommend';
import { createToolSelector } from '../src/toolkit/selector';
import { describeTools } from '../src/model/tool-prompt';
import { estimateTokens } from '../src/model/token-estimate';
import type { ToolDeclaration } from '../src/tools/declaration';
import { measure, type BenchRow, type BenchSuite } from './harness';

/** A small deterministic generator, so every run measures the same graph. */
function random(seed: number) {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function buildLarge(actions = 2000, tools = 10_000): ToolkitGraph {
  const next = random(7);
  const graph = new ToolkitGraph();
  for (let a = 0; a < actions; a++)
    graph.addVertex({ kind: 'action', id: `a${a}`, name: `Action ${a}`, description: '' });
  for (let a = 0; a < actions; a++)
    for (let k = 1; k <= 3 && a + k < actions; k++)
      graph.addEdge(`a${a}`, `a${a + k}`, 'next', Math.round(next() * 100) / 100);
  for (let t = 0; t < tools; t++) {
    graph.addVertex({ kind: 'tool', id: `t${t}` });
    graph.addEdge(`a${t % actions}`, `t${t}`, 'call', Math.round(next() * 100) / 100);
    if (t % 3 === 0) graph.addEdge(`a${(t * 7) % actions}`, `t${t}`, 'call', Math.round(next() * 100) / 100);
  }
  return graph;
}

function declaration(i: number): ToolDeclaration {
  return {
    name: `tool_${i}`,
    description: `Does task number ${i} on this page: reads or changes the part of the page it is named after.`,
    whenToUse: `When the user asks for task ${i}.`,
    parameters: {
      type: 'object',
      properties: { target: { type: 'string', description: 'what to act on' }, count: { type: 'integer', minimum: 1 } },
      required: ['target'],
    },
    annotations: { readOnly: i % 2 === 0 },
    needsApproval: false,
    returnDirect: false,
    longRunning: false,
    timeoutMs: 30_000,
    source: 'page',
  };
}

const suite: BenchSuite = async () => {
  const build = await measure(() => buildLarge(), { iterations: 15, warmup: 2 });
  const graph = buildLarge();
  let i = 0;
  const recommend = await measure(() => recommendIds(graph, [`a${(i = (i + 37) % 2000)}`], { hops: 2 }), {
    iterations: 2000,
    warmup: 100,
  });

  // A 100-tool page whose graph has 20 actions of 5 tools each; a step at one action offers its 5.
  const tools = Array.from({ length: 100 }, (_, n) => declaration(n));
  const page = new ToolkitGraph();
  for (let a = 0; a < 20; a++) page.addVertex({ kind: 'action', id: `step${a}`, name: `Step ${a}`, description: '' });
  for (let a = 0; a < 19; a++) page.addEdge(`step${a}`, `step${a + 1}`, 'next', 0.9);
  tools.forEach((tool, n) => {
    page.addVertex({ kind: 'tool', id: tool.name });
    page.addEdge(`step${Math.floor(n / 5)}`, tool.name, 'call', 0.8);
  });
  const selection = createToolSelector(page, { startActions: ['step3'] }).select(tools.map((tool) => tool.name));
  const offered = tools.filter((tool) => selection.offered.includes(tool.name));
  const withGraph = estimateTokens(describeTools(offered));
  const without = estimateTokens(describeTools(tools));

  const rows: BenchRow[] = [
    {
      group: 'toolkit',
      name: 'build graph: 10,000 tools, 2,000 actions',
      median: build.median,
      p95: build.p95,
      unit: 'ms',
      target: '< 50 ms',
    },
    {
      group: 'toolkit',
      name: 'recommend, hops 2, on that graph',
      median: recommend.median,
      p95: recommend.p95,
      unit: 'ms',
      target: '< 1 ms',
    },
    {
      group: 'toolkit',
      name: 'tool-description tokens per step, 100-tool page with a graph',
      median: withGraph,
      unit: 'tokens',
      peer: { name: 'same page without a graph', median: without },
      target: 'ratio ≤ 0.20',
      note: `${offered.length} of 100 tools offered; the prompt text a non-native model gets (describeTools), tokens estimated`,
    },
  ];
  return rows;
};
export default suite;
