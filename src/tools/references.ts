/**
 * References for retrieval tools, after RAGFlow's ToolBase._retrieve_chunks:
 * search-like results become chunks the model can cite and the page can show.
 *
 * - A chunk's id is a hash of its cleaned content (FNV-1a 64, 16 hex digits):
 *   the same passage gets the same id in every run, tab and session, so a
 *   citation stays valid and duplicates from two searches collapse into one.
 * - Embedded base64 images (bare data: URIs, markdown `![..](data:...)`,
 *   HTML `<img src="data:...">`) are removed: they are useless to a text
 *   model and can be megabytes of prompt.
 * - Content is cut at 10,000 characters (never inside a surrogate pair).
 * - `formatReferences` renders the block the model reads.
 */

export interface SearchResult {
  content: string;
  title?: string;
  url?: string;
  docId?: string;
  score?: number;
  [key: string]: unknown;
}

export interface ReferenceChunk {
  /** Stable: a hash of `content`. */
  id: string;
  /** The given docId, else a hash of the url or title. */
  docId: string;
  title: string;
  url?: string;
  content: string;
  score?: number;
  /** True when the content was cut at maxChars. */
  truncated: boolean;
}

export interface ReferenceDocument {
  docId: string;
  title: string;
  url?: string;
  /** How many chunks came from it. */
  count: number;
}

export interface References {
  chunks: ReferenceChunk[];
  /** One entry per document, in order of first appearance (RAGFlow's doc_aggs). */
  documents: ReferenceDocument[];
}

export interface BuildReferencesOptions<R> {
  /** Default 10,000 characters. */
  maxChars?: number;
  /** For result shapes other than SearchResult (RAGFlow's get_title, get_url, …). */
  getContent?: (result: R) => unknown;
  getTitle?: (result: R) => unknown;
  getUrl?: (result: R) => unknown;
  getScore?: (result: R) => unknown;
  getDocId?: (result: R) => unknown;
}

export const MAX_REFERENCE_CHARS = 10_000;

export function buildReferences<R = SearchResult>(
  results: readonly R[],
  options: BuildReferencesOptions<R> = {},
): References {
  const maxChars = options.maxChars ?? MAX_REFERENCE_CHARS;
  const field = (result: R, getter: ((r: R) => unknown) | undefined, key: string): unknown =>
    getter
      ? getter(result)
      : result !== null && typeof result === 'object'
        ? (result as Record<string, unknown>)[key]
        : undefined;

  const chunks: ReferenceChunk[] = [];
  for (const result of results) {
    const raw = field(result, options.getContent, 'content');
    const cleaned = stripBase64Images(typeof raw === 'string' ? raw : raw == null ? '' : String(raw)).trim();
    if (cleaned === '') continue;
    const { text, truncated } = cut(cleaned, maxChars);
    const title = asText(field(result, options.getTitle, 'title'));
    const url = asText(field(result, options.getUrl, 'url'));
    const score = field(result, options.getScore, 'score');
    const givenDocId = asText(field(result, options.getDocId, 'docId'));
    chunks.push({
      id: hashText(text),
      docId: givenDocId ?? hashText(url ?? title ?? text),
      title: title ?? url ?? 'Untitled',
      ...(url !== undefined && { url }),
      content: text,
      ...(typeof score === 'number' && Number.isFinite(score) && { score }),
      truncated,
    });
  }
  const unique = dedupeReferences(chunks);
  return { chunks: unique, documents: aggregateDocuments(unique) };
}

/** The first chunk with an id wins, except that a higher score replaces it in place. */
function dedupeReferences(chunks: readonly ReferenceChunk[]): ReferenceChunk[] {
  const byId = new Map<string, number>();
  const out: ReferenceChunk[] = [];
  for (const chunk of chunks) {
    const at = byId.get(chunk.id);
    if (at === undefined) {
      byId.set(chunk.id, out.length);
      out.push(chunk);
    } else if ((chunk.score ?? -Infinity) > (out[at]!.score ?? -Infinity)) {
      out[at] = chunk;
    }
  }
  return out;
}

function aggregateDocuments(chunks: readonly ReferenceChunk[]): ReferenceDocument[] {
  const byId = new Map<string, ReferenceDocument>();
  for (const chunk of chunks) {
    const known = byId.get(chunk.docId);
    if (known) known.count++;
    else
      byId.set(chunk.docId, {
        docId: chunk.docId,
        title: chunk.title,
        ...(chunk.url !== undefined && { url: chunk.url }),
        count: 1,
      });
  }
  return [...byId.values()];
}

/**
 * The block the model reads. The ids are what it should cite, e.g. [ID:1f3a…].
 * The content is last so that a cut-off chunk does not hide its own title.
 */
export function formatReferences(chunks: readonly ReferenceChunk[]): string {
  if (chunks.length === 0) return 'No references were found.';
  return chunks
    .map((chunk) =>
      [
        `ID: ${chunk.id}`,
        `├── Title: ${chunk.title}`,
        ...(chunk.url ? [`├── URL: ${chunk.url}`] : []),
        `└── Content:`,
        chunk.truncated ? `${chunk.content}\n[…cut at ${chunk.content.length} characters]` : chunk.content,
      ].join('\n'),
    )
    .join('\n\n');
}

const DATA_URI = String.raw`data:image\/[a-zA-Z0-9.+-]+;base64,[A-Za-z0-9+/=\s]*`;
const MARKDOWN_IMAGE = new RegExp(String.raw`!\[[^\]]*\]\(\s*${DATA_URI}[^)]*\)`, 'g');
const HTML_IMAGE = new RegExp(String.raw`<img\b[^>]*?src\s*=\s*["']?\s*${DATA_URI}[^>]*>`, 'gi');
const BARE_DATA_URI = new RegExp(DATA_URI.replace(String.raw`[A-Za-z0-9+/=\s]*`, String.raw`[A-Za-z0-9+/=]+`), 'g');

export function stripBase64Images(text: string): string {
  return text.replace(MARKDOWN_IMAGE, '').replace(HTML_IMAGE, '').replace(BARE_DATA_URI, '');
}

function cut(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair whole
  return { text: text.slice(0, end), truncated: true };
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;
const encoder = new TextEncoder();

/** FNV-1a 64 over the UTF-8 bytes, as 16 hex digits. Sync, no crypto.subtle. */
export function hashText(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of encoder.encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
}
