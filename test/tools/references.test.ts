import { describe, expect, it } from 'vitest';
import {
  buildReferences,
  formatReferences,
  hashText,
  MAX_REFERENCE_CHARS,
  stripBase64Images,
} from '../../src/tools/references';

const png =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('references', () => {
  it('hashes content to the same id in every run (FNV-1a 64)', () => {
    // Known FNV-1a 64 values: stable across runs, machines and tabs.
    expect(hashText('')).toBe('cbf29ce484222325');
    expect(hashText('a')).toBe('af63dc4c8601ec8c');
    expect(hashText('foobar')).toBe('85944171f73967e8');
    const first = buildReferences([{ content: 'WebGPU runs compute shaders.', title: 'Doc' }]);
    const second = buildReferences([{ content: 'WebGPU runs compute shaders.', title: 'Another title' }]);
    expect(first.chunks[0]!.id).toBe(second.chunks[0]!.id);
    expect(first.chunks[0]!.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('strips embedded base64 images in every form', () => {
    const text = `Before ![chart](${png}) middle <img alt="x" src="${png}"> raw ${png} after`;
    const cleaned = stripBase64Images(text);
    expect(cleaned).not.toContain('base64');
    expect(cleaned).not.toContain('<img');
    expect(cleaned).toContain('Before');
    expect(cleaned).toContain('after');
    const { chunks } = buildReferences([{ content: `Only text ![i](${png})`, title: 't' }]);
    expect(chunks[0]!.content).toBe('Only text');
    expect(chunks[0]!.id).toBe(hashText('Only text'));
  });

  it('cuts content at 10,000 characters and says so', () => {
    const { chunks } = buildReferences([{ content: 'x'.repeat(25_000), title: 'Long' }]);
    expect(chunks[0]!.content).toHaveLength(MAX_REFERENCE_CHARS);
    expect(chunks[0]!.truncated).toBe(true);
    expect(formatReferences(chunks)).toContain('cut at 10000 characters');
    const emoji = buildReferences([{ content: `${'x'.repeat(9_999)}😀tail` }]).chunks[0]!.content;
    expect(emoji).toHaveLength(9_999); // the surrogate pair is not split
  });

  it('dedupes by id, keeping the better score, and aggregates documents', () => {
    const { chunks, documents } = buildReferences([
      { content: 'Same passage', title: 'A', url: 'https://a.example', score: 0.2 },
      { content: 'Other passage', title: 'A', url: 'https://a.example', score: 0.5 },
      { content: 'Same passage', title: 'A', url: 'https://a.example', score: 0.9 },
      { content: `![only an image](${png})`, title: 'Empty' },
    ]);
    expect(chunks.map((c) => [c.content, c.score])).toEqual([
      ['Same passage', 0.9],
      ['Other passage', 0.5],
    ]);
    expect(documents).toEqual([{ docId: chunks[0]!.docId, title: 'A', url: 'https://a.example', count: 2 }]);
  });

  it('reads other result shapes through getters, as RAGFlow does', () => {
    const { chunks } = buildReferences([{ body: 'Text', heading: 'H', link: 'https://h.example', relevance: 2 }], {
      getContent: (r) => r.body,
      getTitle: (r) => r.heading,
      getUrl: (r) => r.link,
      getScore: (r) => r.relevance,
    });
    expect(chunks[0]).toMatchObject({ content: 'Text', title: 'H', url: 'https://h.example', score: 2 });
  });

  it('formats a block the model can cite from', () => {
    const { chunks } = buildReferences([
      { content: 'Milk is in aisle 3.', title: 'Store map', url: 'https://store.example/map' },
    ]);
    expect(formatReferences(chunks)).toBe(
      `ID: ${chunks[0]!.id}\n├── Title: Store map\n├── URL: https://store.example/map\n└── Content:\nMilk is in aisle 3.`,
    );
    expect(formatReferences([])).toBe('No references were found.');
  });
});
