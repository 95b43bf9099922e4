/**
 * The toolkit graph as an SVG picture, with no drawing library: actions in
 * columns by their depth along `next`, then the tools, then the groups.
 * Shapes and colours tell vertex kinds apart, line styles tell edge kinds
 * apart, scores label the edges, and the recommendation for the highlighted
 * actions stands out while the rest fades. All text is escaped.
 */
import type { Edge, ToolkitGraph, Vertex } from './graph';
import { recommendIds } from './recommend';

export interface RenderOptions {
  /** Actions whose recommendation is highlighted. */
  highlight?: string[];
  threshold?: number;
  hops?: number;
  title?: string;
}

const COL = 220;
const ROW = 64;
const PAD = 24;
const BOX = { w: 164, h: 40 };
const COLORS = { action: '#3b6cf6', tool: '#1f9d6b', group: '#d9822b', text: '#1d2433', muted: '#8a93a6' };
const DASH: Record<Edge['kind'], string> = { next: '', call: '6 4', has: '2 4' };

export function renderSvg(graph: ToolkitGraph, options: RenderOptions = {}): string {
  const positions = layout(graph);
  const lit = options.highlight?.length ? highlighted(graph, options) : undefined;
  const on = (id: string) => !lit || lit.has(id);
  const columns = Math.max(1, ...[...positions.values()].map((p) => p.col + 1));
  const rows = Math.max(1, ...[...positions.values()].map((p) => p.row + 1));
  const width = PAD * 2 + columns * COL;
  const height = PAD * 2 + 28 + rows * ROW + ROW / 2 + 56;
  const toolColumn = Math.max(0, ...graph.vertices('action').map((action) => positions.get(action.id)!.col + 1));
  const at = (id: string) => {
    const p = positions.get(id)!;
    // Tools sit half a row lower than actions, so a call edge does not run straight through the actions between.
    const shift = p.col >= toolColumn && graph.vertices('action').length > 0 ? ROW / 2 : 0;
    return { x: PAD + p.col * COL + BOX.w / 2, y: PAD + 28 + p.row * ROW + BOX.h / 2 + shift };
  };

  const edges = graph.edges().map((edge) => {
    const a = at(edge.from);
    const b = at(edge.to);
    // Group memberships run right to left: from the group's left side to the tool's right side.
    const reverse = edge.kind === 'has';
    const start = { x: reverse ? a.x - BOX.w / 2 : a.x + BOX.w / 2, y: a.y };
    const end = { x: reverse ? b.x + BOX.w / 2 : b.x - BOX.w / 2, y: b.y };
    const back = !reverse && end.x <= start.x;
    const c1 = back ? { x: a.x, y: a.y + BOX.h * 1.5 } : { x: (start.x + end.x) / 2, y: start.y };
    const c2 = back ? { x: b.x, y: b.y + BOX.h * 1.5 } : { x: (start.x + end.x) / 2, y: end.y };
    const from = back ? { x: a.x, y: a.y + BOX.h / 2 } : start;
    const to = back ? { x: b.x, y: b.y + BOX.h / 2 } : end;
    const path = `M${from.x},${from.y} C${c1.x},${c1.y} ${c2.x},${c2.y} ${to.x},${to.y}`;
    const active = on(edge.from) && on(edge.to);
    const color = edge.kind === 'has' ? COLORS.group : edge.kind === 'call' ? COLORS.tool : COLORS.action;
    // Scores sit near the arrow's end, where labels of edges from one vertex do not pile up; on an edge
    // back to an earlier action they sit near its start, since such edges often end at one vertex.
    const t = back ? 0.3 : 0.78;
    const point = (k: 'x' | 'y') =>
      (1 - t) ** 3 * from[k] + 3 * (1 - t) ** 2 * t * c1[k] + 3 * (1 - t) * t ** 2 * c2[k] + t ** 3 * to[k];
    const label =
      edge.kind === 'has'
        ? ''
        : `<text x="${point('x').toFixed(1)}" y="${(point('y') - 5).toFixed(1)}" text-anchor="middle" class="score">${edge.score.toFixed(2)}</text>`;
    return `<g opacity="${active ? 1 : 0.25}"><path d="${path}" fill="none" stroke="${color}" stroke-width="${lit && active ? 2.5 : 1.5}" stroke-dasharray="${DASH[edge.kind]}" marker-end="url(#arrow-${edge.kind})"/>${label}</g>`;
  });

  const vertices = graph.vertices().map((vertex) => {
    const { x, y } = at(vertex.id);
    const active = on(vertex.id);
    const strong = lit && active ? ' stroke-width="3"' : ' stroke-width="1.5"';
    const shape = shapeOf(vertex, x, y, strong);
    const name = vertex.kind === 'tool' ? vertex.id : vertex.name;
    const tip = vertex.description ? `<title>${escapeXml(vertex.description)}</title>` : '';
    return `<g opacity="${active ? 1 : 0.35}" data-id="${escapeXml(vertex.id)}" data-kind="${vertex.kind}"${lit && active ? ' data-highlighted="true"' : ''}>${tip}${shape}<text x="${x}" y="${y + 4}" text-anchor="middle" class="label">${escapeXml(clip(name, 22))}</text></g>`;
  });

  const legendY = height - 36;
  const legend = [
    `<rect x="${PAD}" y="${legendY - 12}" width="22" height="16" rx="4" fill="${COLORS.action}22" stroke="${COLORS.action}"/><text x="${PAD + 28}" y="${legendY}" class="legend">Action</text>`,
    `<rect x="${PAD + 90}" y="${legendY - 12}" width="22" height="16" rx="8" fill="${COLORS.tool}22" stroke="${COLORS.tool}"/><text x="${PAD + 118}" y="${legendY}" class="legend">Tool</text>`,
    `<polygon points="${hexagon(PAD + 191, legendY - 4, 11, 8)}" fill="${COLORS.group}22" stroke="${COLORS.group}"/><text x="${PAD + 208}" y="${legendY}" class="legend">Group</text>`,
    `<line x1="${PAD + 270}" y1="${legendY - 4}" x2="${PAD + 300}" y2="${legendY - 4}" stroke="${COLORS.action}"/><text x="${PAD + 306}" y="${legendY}" class="legend">next</text>`,
    `<line x1="${PAD + 350}" y1="${legendY - 4}" x2="${PAD + 380}" y2="${legendY - 4}" stroke="${COLORS.tool}" stroke-dasharray="6 4"/><text x="${PAD + 386}" y="${legendY}" class="legend">call</text>`,
    `<line x1="${PAD + 424}" y1="${legendY - 4}" x2="${PAD + 454}" y2="${legendY - 4}" stroke="${COLORS.group}" stroke-dasharray="2 4"/><text x="${PAD + 460}" y="${legendY}" class="legend">has</text>`,
    lit
      ? `<text x="${PAD + 500}" y="${legendY}" class="legend">bold: recommended for ${escapeXml(options.highlight!.join(', '))}</text>`
      : '',
  ].join('');

  const markers = (['next', 'call', 'has'] as const)
    .map((kind) => {
      const color = kind === 'has' ? COLORS.group : kind === 'call' ? COLORS.tool : COLORS.action;
      return `<marker id="arrow-${kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${color}"/></marker>`;
    })
    .join('');
  const title = options.title ?? 'Toolkit graph';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<style>.label{font:600 12px system-ui,sans-serif;fill:${COLORS.text}}.score{font:11px system-ui,sans-serif;fill:${COLORS.muted}}.legend{font:12px system-ui,sans-serif;fill:${COLORS.muted}}.title{font:600 14px system-ui,sans-serif;fill:${COLORS.text}}.base{fill:#fff}@media (prefers-color-scheme: dark){.label,.title{fill:#e6e9f0}.base{fill:#151922}}</style>`,
    `<defs>${markers}</defs>`,
    `<text x="${PAD}" y="${PAD + 4}" class="title">${escapeXml(title)}</text>`,
    ...edges,
    ...vertices,
    legend,
    '</svg>',
  ].join('');
}

function shapeOf(vertex: Vertex, x: number, y: number, stroke: string): string {
  const left = x - BOX.w / 2;
  const top = y - BOX.h / 2;
  const base =
    vertex.kind === 'group'
      ? `<polygon points="${hexagon(x, y, BOX.w / 2, BOX.h / 2)}" class="base"/>`
      : `<rect x="${left}" y="${top}" width="${BOX.w}" height="${BOX.h}" rx="${vertex.kind === 'tool' ? BOX.h / 2 : 8}" class="base"/>`;
  return base + tint(vertex, x, y, left, top, stroke);
}

function tint(vertex: Vertex, x: number, y: number, left: number, top: number, stroke: string): string {
  if (vertex.kind === 'action')
    return `<rect x="${left}" y="${top}" width="${BOX.w}" height="${BOX.h}" rx="8" fill="${COLORS.action}1f" stroke="${COLORS.action}"${stroke}/>`;
  if (vertex.kind === 'tool')
    return `<rect x="${left}" y="${top}" width="${BOX.w}" height="${BOX.h}" rx="${BOX.h / 2}" fill="${COLORS.tool}1f" stroke="${COLORS.tool}"${stroke}/>`;
  return `<polygon points="${hexagon(x, y, BOX.w / 2, BOX.h / 2)}" fill="${COLORS.group}1f" stroke="${COLORS.group}"${stroke}/>`;
}

function hexagon(x: number, y: number, rx: number, ry: number): string {
  const inset = ry;
  return [
    [x - rx, y],
    [x - rx + inset, y - ry],
    [x + rx - inset, y - ry],
    [x + rx, y],
    [x + rx - inset, y + ry],
    [x - rx + inset, y + ry],
  ]
    .map(([px, py]) => `${px},${py}`)
    .join(' ');
}

/** Columns: actions by depth along `next` from the actions nothing leads to; then tools; then groups. */
function layout(graph: ToolkitGraph): Map<string, { col: number; row: number }> {
  const depth = new Map<string, number>();
  const actions = graph.vertices('action').map((action) => action.id);
  const roots = actions.filter((id) => graph.in(id, 'next').length === 0);
  const queue = (roots.length ? roots : actions.slice(0, 1)).map((id) => ({ id, d: 0 }));
  for (const { id, d } of queue) {
    if (depth.has(id)) continue;
    depth.set(id, d);
    for (const edge of graph.out(id, 'next')) if (!depth.has(edge.to)) queue.push({ id: edge.to, d: d + 1 });
  }
  for (const id of actions) if (!depth.has(id)) depth.set(id, 0);
  const actionColumns = Math.max(0, ...depth.values()) + 1;
  const positions = new Map<string, { col: number; row: number }>();
  const rowsUsed = new Map<number, number>();
  const place = (id: string, col: number) => {
    const row = rowsUsed.get(col) ?? 0;
    rowsUsed.set(col, row + 1);
    positions.set(id, { col, row });
  };
  for (const id of actions) place(id, depth.get(id)!);
  // Tools in the order of their first caller, so call edges cross less.
  const tools = graph.vertices('tool').map((tool) => tool.id);
  const firstCaller = (tool: string) =>
    Math.min(...graph.in(tool, 'call').map((edge) => positions.get(edge.from)?.row ?? 0), Number.MAX_SAFE_INTEGER);
  for (const id of [...tools].sort((a, b) => firstCaller(a) - firstCaller(b))) place(id, actionColumns);
  for (const group of graph.vertices('group')) place(group.id, actionColumns + 1);
  return positions;
}

function highlighted(graph: ToolkitGraph, options: RenderOptions): Set<string> {
  const known = (options.highlight ?? []).filter((id) => graph.vertex(id)?.kind === 'action');
  const { actions, tools, groups } = recommendIds(graph, known, { threshold: options.threshold, hops: options.hops });
  return new Set([...actions, ...tools, ...groups]);
}

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);
}
