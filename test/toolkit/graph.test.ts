import { describe, expect, test } from 'vitest';
import { ToolkitGraph } from '../../src/toolkit/graph';
import { Toolkit } from '../../src/toolkit/toolkit';
import { recommendIds } from '../../src/toolkit/recommend';
import { learnFromEvents } from '../../src/toolkit/learn';
import { createToolSelector } from '../../src/toolkit/selector';
import { renderSvg } from '../../src/toolkit/render-svg';
import { toMermaid } from '../../src/toolkit/mermaid';
import type { AgentEvent } from '../../src/session/event';

const action = (id: string) => ({ id, name: id.toUpperCase(), description: `${id} things` });

/**
 * The graph used by several tests:
 *   plan --0.9--> search --0.8--> write
 *   plan --0.3--> review
 *   plan  calls  outline (0.9), notes (0.4)
 *   search calls web (0.7), files (0.6)
 *   write calls  editor (0.9)
 *   review calls lint (0.8)
 *   group "fs" has files, notes
 */
async function sample() {
  const toolkit = new Toolkit();
  await toolkit.addAction(action('plan'));
  await toolkit.addAction(action('search'), [], [{ action: 'plan', score: 0.9 }]);
  await toolkit.addAction(action('write'), [], [{ action: 'search', score: 0.8 }]);
  await toolkit.addAction(action('review'), [], [{ action: 'plan', score: 0.3 }]);
  await toolkit.addTool('outline', [{ action: 'plan', score: 0.9 }]);
  await toolkit.addTool('web', [{ action: 'search', score: 0.7 }]);
  await toolkit.addTool('editor', [{ action: 'write', score: 0.9 }]);
  await toolkit.addTool('lint', [{ action: 'review', score: 0.8 }]);
  await toolkit.addToolGroup(
    { id: 'fs', name: 'File system', description: 'local files' },
    ['files', 'notes'],
    [{ action: 'search', score: 0.6 }],
  );
  toolkit.graph.setScore('search', 'notes', 0.2);
  toolkit.graph.addEdge('plan', 'notes', 'call', 0.4);
  return toolkit;
}

describe('recommendation by weighted BFS', () => {
  test('hops 0 gives the start actions and their tools at or above the threshold', async () => {
    const { graph } = await sample();
    // plan alone; its calls: outline 0.9 ≥ 0.5 kept, notes 0.4 < 0.5 dropped.
    expect(recommendIds(graph, ['plan'])).toEqual({ actions: ['plan'], tools: ['outline'], groups: [] });
  });

  test('hops 1 follows next edges at or above the threshold one step', async () => {
    const { graph } = await sample();
    // plan → search (0.9 ≥ 0.5) yes, plan → review (0.3) no; search's calls: web 0.7, files 0.6 (in group fs), notes 0.2 no.
    const r = recommendIds(graph, ['plan'], { hops: 1 });
    expect(r.actions.sort()).toEqual(['plan', 'search']);
    expect(r.tools.sort()).toEqual(['files', 'outline', 'web']);
    expect(r.groups).toEqual(['fs']);
  });

  test('hops 2 reaches two steps; a lower threshold lets weak edges in', async () => {
    const { graph } = await sample();
    // hops 2: plan → search → write (0.8); write calls editor 0.9.
    expect(recommendIds(graph, ['plan'], { hops: 2 }).actions.sort()).toEqual(['plan', 'search', 'write']);
    // threshold 0.25: review (0.3) joins at hop 1, and with it lint 0.8; notes 0.4 from plan, notes 0.2 from search stays out but notes is in via plan.
    const low = recommendIds(graph, ['plan'], { hops: 1, threshold: 0.25 });
    expect(low.actions.sort()).toEqual(['plan', 'review', 'search']);
    expect(low.tools.sort()).toEqual(['files', 'lint', 'notes', 'outline', 'web']);
  });

  test('an unknown start action is a clear error', async () => {
    const { graph } = await sample();
    expect(() => recommendIds(graph, ['nope'])).toThrow(/"nope" is not an action/);
  });
});

describe("removal cascades (Chat2Graph's three rules)", () => {
  test('1. removing an action takes the tools no other action calls, and keeps shared ones', async () => {
    const toolkit = await sample();
    await toolkit.removeAction('plan');
    expect(toolkit.graph.has('outline')).toBe(false); // only plan called it
    expect(toolkit.graph.has('notes')).toBe(true); // search still calls it
    expect(
      toolkit.graph
        .out('search', 'call')
        .map((e) => e.to)
        .sort(),
    ).toEqual(['files', 'notes', 'web']);
  });

  test('2. removing a group takes all its tools', async () => {
    const { graph } = await sample();
    graph.remove('fs');
    expect(graph.has('files') || graph.has('notes') || graph.has('fs')).toBe(false);
    expect(graph.out('search', 'call').map((e) => e.to)).toEqual(['web']);
  });

  test('3. removing a tool takes a group that held only it', async () => {
    const toolkit = new Toolkit();
    await toolkit.addAction(action('a'));
    await toolkit.addToolGroup({ id: 'solo', name: 'Solo', description: '' }, ['only'], [{ action: 'a', score: 1 }]);
    await toolkit.addToolGroup({ id: 'pair', name: 'Pair', description: '' }, ['x', 'y'], [{ action: 'a', score: 1 }]);
    await toolkit.removeTool('only');
    await toolkit.removeTool('x');
    expect(toolkit.graph.has('solo')).toBe(false);
    expect(toolkit.graph.has('pair')).toBe(true);
  });
});

describe('the graph', () => {
  test('update merges another graph without duplicating vertices or edges', async () => {
    const { graph } = await sample();
    const other = new ToolkitGraph();
    other.addVertex({ kind: 'action', ...action('plan') });
    other.addVertex({ kind: 'action', ...action('ship') });
    other.addVertex({ kind: 'tool', id: 'outline' });
    other.addEdge('plan', 'ship', 'next', 0.7);
    other.addEdge('plan', 'outline', 'call', 0.5);
    const before = graph.edges().length;
    graph.update(other);
    expect(
      graph
        .vertices('action')
        .map((a) => a.id)
        .sort(),
    ).toEqual(['plan', 'review', 'search', 'ship', 'write']);
    expect(graph.edges().length).toBe(before + 1);
    expect(graph.getScore('plan', 'outline')).toBe(0.5);
  });

  test('subgraph keeps the given vertices and only the edges between them', async () => {
    const { graph } = await sample();
    const sub = graph.subgraph(['plan', 'search', 'web']);
    expect(
      sub
        .edges()
        .map((e) => `${e.from}>${e.to}`)
        .sort(),
    ).toEqual(['plan>search', 'search>web']);
  });

  test('getScore is 1.0 without an edge; setScore checks the range', async () => {
    const { graph } = await sample();
    expect(graph.getScore('write', 'plan')).toBe(1);
    expect(() => graph.setScore('plan', 'search', 1.5)).toThrow(/from 0 to 1/);
    expect(() => graph.setScore('write', 'plan', 0.5)).toThrow(/no edge/);
  });

  test('toJSON / fromJSON round-trip, and bad data says what is wrong', async () => {
    const { graph } = await sample();
    const copy = ToolkitGraph.fromJSON(structuredClone(graph.toJSON()));
    expect(copy.toJSON()).toEqual(graph.toJSON());
    expect(() => ToolkitGraph.fromJSON({ vertices: [] })).toThrow(/Not a toolkit graph/);
    const broken = graph.toJSON();
    broken.edges.push({ from: 'plan', to: 'ghost', kind: 'call', score: 1 });
    expect(() => ToolkitGraph.fromJSON(broken)).toThrow(/"plan" → "ghost"/);
  });

  test('a tool connected to no action is refused, and a missing action is named', async () => {
    const toolkit = await sample();
    await expect(toolkit.addTool('lonely', [])).rejects.toThrow(/connected to no action/);
    expect(() => toolkit.getAction('nope')).toThrow(/no action "nope".*plan/);
  });

  test("an MCP server's tools join as one group", async () => {
    const toolkit = await sample();
    await toolkit.addMCPToolGroup(
      { id: 'browser-mcp' },
      [{ name: 'navigate', description: 'Go to a URL' }, { name: 'click' }],
      [{ action: 'search', score: 0.8 }],
    );
    expect(toolkit.graph.out('browser-mcp', 'has').map((e) => e.to)).toEqual(['navigate', 'click']);
    expect(recommendIds(toolkit.graph, ['search']).tools).toContain('navigate');
  });
});

describe('the step selector the loop uses', () => {
  test('offers the recommended tools plus every tool the graph does not know, then follows calls', async () => {
    const { graph } = await sample();
    const selector = createToolSelector(graph, { startActions: ['plan'] });
    const declared = ['outline', 'web', 'editor', 'lint', 'files', 'notes', 'clock'];
    expect(selector.select(declared).offered).toEqual(['outline', 'clock']);
    // The run's prompt names the steps ahead (the same line for every step of the run).
    expect(selector.describeRun(declared).prompt).toMatch(/SEARCH/);
    selector.afterCall('web');
    expect(selector.current).toEqual(['search']);
    expect(selector.select(declared).offered).toEqual(['web', 'files', 'clock']);
  });
});

describe('learning', () => {
  function toolEvent(responses: { name: string; error?: string }[]): AgentEvent {
    return {
      type: 'tool',
      id: 'e',
      sessionId: 's',
      invocationId: 'i',
      seq: 1,
      author: 'assistant',
      timestamp: 0,
      content: {
        role: 'tool',
        parts: responses.map((r, i) => ({
          functionResponse: { id: `c${i}`, name: r.name, response: null, ...(r.error ? { error: r.error } : {}) },
        })),
      },
    };
  }

  test('successes strengthen call and next edges, errors weaken, scores stay in [0, 1], and the result is deterministic', async () => {
    const a = await sample();
    const b = await sample();
    const sessions = [
      [toolEvent([{ name: 'outline' }]), toolEvent([{ name: 'web' }]), toolEvent([{ name: 'editor', error: 'boom' }])],
    ];
    learnFromEvents(a.graph, sessions, { rate: 0.5 });
    learnFromEvents(b.graph, sessions, { rate: 0.5 });
    expect(a.graph.toJSON()).toEqual(b.graph.toJSON());
    expect(a.graph.getScore('plan', 'outline')).toBeCloseTo(0.95);
    expect(a.graph.getScore('search', 'web')).toBeCloseTo(0.85);
    expect(a.graph.getScore('plan', 'search')).toBeCloseTo(0.95);
    expect(a.graph.getScore('write', 'editor')).toBeCloseTo(0.45);
    // The failed step does not count as a good transition.
    expect(a.graph.getScore('search', 'write')).toBe(0.8);
    for (let i = 0; i < 50; i++) learnFromEvents(a.graph, sessions, { rate: 0.9 });
    for (const edge of a.graph.edges())
      (expect(edge.score).toBeGreaterThanOrEqual(0), expect(edge.score).toBeLessThanOrEqual(1));
  });
});

describe('pictures', () => {
  test('the SVG draws every vertex, escapes hostile names, and marks the recommendation', async () => {
    const toolkit = await sample();
    await toolkit.addAction(
      { id: 'evil', name: '<script>alert(1)</script>', description: '"&' },
      [],
      [{ action: 'plan', score: 0.1 }],
    );
    const svg = renderSvg(toolkit.graph, { highlight: ['plan'], hops: 1 });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
    const highlighted = [...svg.matchAll(/data-id="([^"]+)"[^>]*data-highlighted="true"/g)].map((m) => m[1]).sort();
    expect(highlighted).toEqual(['files', 'fs', 'outline', 'plan', 'search', 'web']);
    expect(svg.match(/data-kind="group"/g)).toHaveLength(1);
  });

  test('Mermaid output names every vertex once and labels scored edges', async () => {
    const { graph } = await sample();
    const text = toMermaid(graph);
    expect(text.split('\n')[0]).toBe('flowchart LR');
    expect(text).toContain('-->|0.90|');
    expect(text).toContain('-.->|0.70|');
  });
});
