/** The toolkit graph as a Mermaid flowchart, for docs and issue trackers. */
import type { ToolkitGraph } from './graph';

export function toMermaid(graph: ToolkitGraph): string {
  const ids = new Map<string, string>();
  const node = (id: string) => {
    if (!ids.has(id)) ids.set(id, `n${ids.size}`);
    return ids.get(id)!;
  };
  const label = (text: string) =>
    `"${text.replace(/["\\]/g, "'").replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))}"`;
  const lines = ['flowchart LR'];
  for (const vertex of graph.vertices()) {
    const text = label(vertex.kind === 'tool' ? vertex.id : vertex.name);
    lines.push(
      vertex.kind === 'action'
        ? `  ${node(vertex.id)}[${text}]`
        : vertex.kind === 'tool'
          ? `  ${node(vertex.id)}([${text}])`
          : `  ${node(vertex.id)}{{${text}}}`,
    );
  }
  for (const edge of graph.edges()) {
    const arrow =
      edge.kind === 'next'
        ? `-->|${edge.score.toFixed(2)}|`
        : edge.kind === 'call'
          ? `-.->|${edge.score.toFixed(2)}|`
          : '---';
    lines.push(`  ${node(edge.from)} ${arrow} ${node(edge.to)}`);
  }
  lines.push(
    '  classDef action fill:#3b6cf61f,stroke:#3b6cf6;',
    '  classDef tool fill:#1f9d6b1f,stroke:#1f9d6b;',
    '  classDef group fill:#d9822b1f,stroke:#d9822b;',
  );
  for (const kind of ['action', 'tool', 'group'] as const) {
    const members = graph.vertices(kind).map((vertex) => node(vertex.id));
    if (members.length) lines.push(`  class ${members.join(',')} ${kind};`);
  }
  return lines.join('\n');
}
