import { describe, expect, test } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The docs a newcomer gets with the package stand alone: every link stays in
 * this repository and leads somewhere, and the API reference (written by hand:
 * TypeDoc cannot run on TypeScript 7) names every export and every option.
 */
const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** Markdown without its fenced code blocks (a fence opens and closes at a line's start; ``` inside a table cell is inline code). */
const withoutCode = (markdown: string) => markdown.replace(/^ *```[^\n]*\n[\s\S]*?^ *```/gm, '');

function headings(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!));
}

describe('the docs stand alone', () => {
  test.each(docs)('%s links only to files of this repository that exist, and to headings they have', (doc) => {
    const text = withoutCode(read(doc));
    const problems: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) {
        problems.push(`${target}: a link outside the repository`);
        continue;
      }
      const [path, hash] = target!.split('#') as [string, string | undefined];
      const file = path ? resolve(dirname(join(root, doc)), path) : join(root, doc);
      if (relative(root, file).startsWith('..')) problems.push(`${target}: outside the repository`);
      else if (!existsSync(file)) problems.push(`${target}: no such file`);
      else if (hash && file.endsWith('.md') && !headings(readFileSync(file, 'utf8')).includes(hash))
        problems.push(`${target}: no such heading`);
    }
    expect(problems).toEqual([]);
  });

  test.each(docs)('%s names only files of this repository that exist', (doc) => {
    const paths = [...read(doc).matchAll(/`((?:src|test|scripts|bench|demo|docs|public)\/[\w./-]*\w)`/g)].map(
      (m) => m[1]!,
    );
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  test("the README's quick start starts the demo and runs the tests with the one command .ci/run runs", () => {
    const readme = read('README.md');
    const quickStart = readme.slice(
      readme.indexOf('\n## Quick start\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Quick start\n') + 1),
    );
    const block = quickStart.match(/```sh\n([\s\S]*?)```/)?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
    // CI runs exactly the README's test command, after installing and fetching the real model.
    const ci = read('.ci/run')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'));
    expect(ci.at(-1)).toBe('npm test');
  });

  test('each promise of docs/security.md names a test that attacks it, and every test it names exists', () => {
    const security = read('docs/security.md');
    // The README's summary sends the reader there.
    const readme = read('README.md');
    const summary = readme.slice(
      readme.indexOf('\n## Security\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Security\n') + 1),
    );
    expect(summary).toContain('](docs/security.md)');
    // The lists of promises, each under its own line ("What … guarantees:"), up to the next such line.
    const lists = security
      .split(/^(?=What [^\n]*:$)/m)
      .filter((part) => /^What [^\n]*guarantees:\n/.test(part))
      .map((part) => ({ title: part.slice(0, part.indexOf('\n')), body: part.slice(part.indexOf('\n')) }));
    expect(lists.map((list) => list.title)).toEqual([
      'What the approval gate guarantees:',
      'What the rest of the runtime guarantees:',
    ]);
    const promises = lists.flatMap((list) => list.body.split(/^- /m).slice(1));
    expect(promises.length).toBeGreaterThanOrEqual(13);
    expect(promises.filter((promise) => !/\[test\/[^\]]+\]/.test(promise))).toEqual([]);
    const named = [...security.matchAll(/\[((?:test\/[^\],\s]+)(?:,\s*test\/[^\],\s]+)*)\]/g)].flatMap((match) =>
      match[1]!.split(/,\s*/),
    );
    expect(named.length).toBeGreaterThanOrEqual(promises.length);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  /** The names an entry file exports, from its `export … from` lines. */
  function exportsOf(entry: string): string[] {
    return [...read(entry).matchAll(/^export (?:type )?\{([^}]+)\} from/gm)].flatMap((match) =>
      match[1]!
        .split(',')
        .map((name) =>
          name
            .trim()
            .replace(/^type /, '')
            .split(' as ')
            .pop()!
            .trim(),
        )
        .filter(Boolean),
    );
  }

  test('the API reference names every export of inpage-agent, inpage-agent/extension, inpage-agent/ai-sdk and inpage-agent/chat', () => {
    const api = read('docs/api.md');
    const names = [
      ...new Set([
        ...exportsOf('src/index.ts'),
        ...exportsOf('src/extension/index.ts'),
        ...exportsOf('src/ai-sdk/index.ts'),
        ...exportsOf('src/chat/index.ts'),
      ]),
    ];
    expect(names.length).toBeGreaterThan(30);
    expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(api))).toEqual([]);
  });

  test("the API reference has a row for every option of createAgent and every field of defineTool's spec", () => {
    const api = read('docs/api.md');
    const fields = (file: string, type: string) => {
      const body = read(file).match(new RegExp(`export interface ${type}[^{]*\\{([\\s\\S]*?)\\n\\}`))![1]!;
      return [...body.matchAll(/^ {2}(\w+)\??[:(]/gm)].map((match) => match[1]!);
    };
    const options = fields('src/page/options.ts', 'AgentOptions');
    const spec = fields('src/tools/define-tool.ts', 'ToolSpec');
    expect(options).toContain('sharedWorkerUrl');
    expect(spec).toContain('execute');
    // The names in each table row's first cell: `name`, `name(args)`, or several.
    const rows = [...api.matchAll(/^\| ([^|]+)\|/gm)].flatMap((match) =>
      [...match[1]!.matchAll(/`(\w+)/g)].map((name) => name[1]!),
    );
    expect([...options, ...spec].filter((name) => !rows.includes(name))).toEqual([]);
  });
});
