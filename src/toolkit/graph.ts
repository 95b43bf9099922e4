/**
 * The toolkit graph, after Chat2Graph: Actions (states of a task), Tools
 * (declared tool names) and ToolGroups (a set of tools, e.g. one MCP server).
 * Edges: Action→Action `next`, Action→Tool `call` (scored 0..1), and
 * ToolGroup→Tool `has` (always 1). Adjacency maps in both directions keep
 * removal and recommendation proportional to the neighbourhood, not the graph.
 */
import { AgentError } from '../errors';

export interface Action {
  id: string;
  name: string;
  description: string;
}
export interface ToolVertex {
  /** The declared tool's name. */
  id: string;
  description?: string;
}
export interface ToolGroup {
  id: string;
  name: string;
  description: string;
}

export type Vertex = ({ kind: 'action' } & Action) | ({ kind: 'tool' } & ToolVertex) | ({ kind: 'group' } & ToolGroup);
export type EdgeKind = 'next' | 'call' | 'has';
export interface Edge {
  from: string;
  to: string;
  kind: EdgeKind;
  score: number;
}

const TOOLKIT_FORMAT = 'inpage-agent/toolkit@1';
export interface ToolkitJSON {
  format: typeof TOOLKIT_FORMAT;
  vertices: Vertex[];
  edges: Edge[];
}

const EDGE_ENDS: Record<EdgeKind, [Vertex['kind'], Vertex['kind']]> = {
  next: ['action', 'action'],
  call: ['action', 'tool'],
  has: ['group', 'tool'],
};

export function invalid(message: string): AgentError {
  return new AgentError('toolkit-invalid', message);
}

function checkScore(score: number, where: string): number {
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
    throw invalid(`The score of ${where} must be a number from 0 to 1 (got ${String(score)}).`);
  }
  return score;
}

export class ToolkitGraph {
  private readonly vertexMap = new Map<string, Vertex>();
  private readonly outgoing = new Map<string, Map<string, Edge>>();
  private readonly incoming = new Map<string, Map<string, Edge>>();

  /** Adds a vertex, or updates its data when one of the same kind exists. */
  addVertex(vertex: Vertex): void {
    if (!vertex || typeof vertex.id !== 'string' || !vertex.id) throw invalid('A vertex needs a non-empty string id.');
    const existing = this.vertexMap.get(vertex.id);
    if (existing && existing.kind !== vertex.kind) {
      throw invalid(`"${vertex.id}" is already a ${existing.kind}; a ${vertex.kind} cannot use the same id.`);
    }
    this.vertexMap.set(vertex.id, { ...existing, ...vertex } as Vertex);
  }

  addEdge(from: string, to: string, kind: EdgeKind, score = 1): void {
    const [fromKind, toKind] = EDGE_ENDS[kind];
    const u = this.vertexMap.get(from);
    const v = this.vertexMap.get(to);
    if (u?.kind !== fromKind || v?.kind !== toKind) {
      throw invalid(
        `A "${kind}" edge goes from a ${fromKind} to a ${toKind}; "${from}" → "${to}" does not (add both vertices first).`,
      );
    }
    const edge: Edge = { from, to, kind, score: kind === 'has' ? 1 : checkScore(score, `${from} → ${to}`) };
    link(this.outgoing, from, to, edge);
    link(this.incoming, to, from, edge);
  }

  has(id: string): boolean {
    return this.vertexMap.has(id);
  }

  vertex(id: string): Vertex | undefined {
    return this.vertexMap.get(id);
  }

  /** Every vertex with its data (Chat2Graph's vertices_data), optionally of one kind. */
  vertices<K extends Vertex['kind']>(kind?: K): Extract<Vertex, { kind: K }>[] {
    const all = [...this.vertexMap.values()];
    return (kind ? all.filter((vertex) => vertex.kind === kind) : all) as Extract<Vertex, { kind: K }>[];
  }

  edges(kind?: EdgeKind): Edge[] {
    const all = [...this.outgoing.values()].flatMap((edges) => [...edges.values()]);
    return kind ? all.filter((edge) => edge.kind === kind) : all;
  }

  out(id: string, kind?: EdgeKind): Edge[] {
    const edges = [...(this.outgoing.get(id)?.values() ?? [])];
    return kind ? edges.filter((edge) => edge.kind === kind) : edges;
  }

  in(id: string, kind?: EdgeKind): Edge[] {
    const edges = [...(this.incoming.get(id)?.values() ?? [])];
    return kind ? edges.filter((edge) => edge.kind === kind) : edges;
  }

  /** The score of u → v; 1.0 when there is no such edge (as in Chat2Graph). */
  getScore(u: string, v: string): number {
    return this.outgoing.get(u)?.get(v)?.score ?? 1;
  }

  setScore(u: string, v: string, score: number): void {
    const edge = this.outgoing.get(u)?.get(v);
    if (!edge) throw invalid(`There is no edge "${u}" → "${v}" to score.`);
    if (edge.kind === 'has') throw invalid(`"${u}" → "${v}" is a group membership; its score is always 1.`);
    edge.score = checkScore(score, `${u} → ${v}`);
  }

  /**
   * Removes a vertex with Chat2Graph's one-way cascade:
   * 1. an Action takes the Tools that no other Action calls;
   * 2. a ToolGroup takes all its Tools;
   * 3. a Tool takes a ToolGroup that held only it.
   */
  remove(id: string): void {
    const vertex = this.vertexMap.get(id);
    if (!vertex) return;
    if (vertex.kind === 'action') {
      const called = this.out(id, 'call').map((edge) => edge.to);
      this.detach(id);
      for (const tool of called) if (this.in(tool, 'call').length === 0) this.remove(tool);
    } else if (vertex.kind === 'group') {
      const tools = this.out(id, 'has').map((edge) => edge.to);
      this.detach(id);
      for (const tool of tools) this.detach(tool);
    } else {
      const groups = this.in(id, 'has').map((edge) => edge.from);
      this.detach(id);
      for (const group of groups) if (this.out(group, 'has').length === 0) this.detach(group);
    }
  }

  /** A new graph with only these vertices and the edges between them. */
  subgraph(ids: Iterable<string>): ToolkitGraph {
    const keep = new Set(ids);
    const sub = new ToolkitGraph();
    for (const id of keep) {
      const vertex = this.vertexMap.get(id);
      if (vertex) sub.addVertex(structuredClone(vertex));
    }
    for (const id of keep)
      for (const edge of this.out(id))
        if (keep.has(edge.to) && sub.has(edge.from)) sub.addEdge(edge.from, edge.to, edge.kind, edge.score);
    return sub;
  }

  /** Merges another graph in: new vertices and edges are added, existing ones are not duplicated (their scores are taken from `other`). */
  update(other: ToolkitGraph): void {
    for (const vertex of other.vertices()) this.addVertex(structuredClone(vertex));
    for (const edge of other.edges()) this.addEdge(edge.from, edge.to, edge.kind, edge.score);
  }

  toJSON(): ToolkitJSON {
    return { format: TOOLKIT_FORMAT, vertices: structuredClone(this.vertices()), edges: structuredClone(this.edges()) };
  }

  static fromJSON(data: unknown): ToolkitGraph {
    const json = data as Partial<ToolkitJSON> | null;
    if (!json || json.format !== TOOLKIT_FORMAT || !Array.isArray(json.vertices) || !Array.isArray(json.edges)) {
      throw invalid(`Not a toolkit graph: expected { format: "${TOOLKIT_FORMAT}", vertices: [...], edges: [...] }.`);
    }
    const graph = new ToolkitGraph();
    json.vertices.forEach((vertex, i) => {
      if (!vertex || !['action', 'tool', 'group'].includes(vertex.kind))
        throw invalid(`vertices[${i}] must have kind action, tool or group.`);
      graph.addVertex(vertex);
    });
    json.edges.forEach((edge, i) => {
      if (!edge || !['next', 'call', 'has'].includes(edge.kind))
        throw invalid(`edges[${i}] must have kind next, call or has.`);
      graph.addEdge(edge.from, edge.to, edge.kind, edge.score);
    });
    return graph;
  }

  private detach(id: string): void {
    for (const edge of this.out(id)) this.incoming.get(edge.to)?.delete(id);
    for (const edge of this.in(id)) this.outgoing.get(edge.from)?.delete(id);
    this.outgoing.delete(id);
    this.incoming.delete(id);
    this.vertexMap.delete(id);
  }
}

function link(map: Map<string, Map<string, Edge>>, key: string, other: string, edge: Edge): void {
  let edges = map.get(key);
  if (!edges) map.set(key, (edges = new Map()));
  edges.set(other, edge);
}
