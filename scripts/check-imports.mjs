// Checks the import graph, so that each file can be read before the files that use it:
// - no import circle anywhere in the repository (src, test, bench, demo, eval, scripts and the
//   config files at its root): no file reaches itself through its imports (type-only and
//   dynamic imports count: a circle of types is still a circle to read);
// - no unused export: every name a file of src/ exports is imported somewhere in the
//   repository (src, test, bench, demo, eval), or is public (an entry point's export), or,
//   for a type, is named in another export of its file (a parameter's or a result's type is
//   part of that export: a reader of its declaration needs to be able to name it).
// Files are read with the parser Vite itself uses (oxc, through rolldown/utils), so every
// import form counts: import, import type, export … from, export *, and import('…').
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseSync } from 'rolldown/utils';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
/** The files whose exports are the package's (scripts/library-builds.mjs builds each one). */
const ENTRIES = [
  'index.ts',
  'embed.ts',
  'ai-sdk/index.ts',
  'chat/index.ts',
  'isolation/isolation.ts',
  'extension/index.ts',
  'extension/content-entry.ts',
  'worker/worker-entry.ts',
  'worker/shared-worker-entry.ts',
].map((file) => join(src, file));
/** The build puts page/worker-url.<variant>.ts in place of page/worker-url.ts: they export what it exports. */
const STAND_INS = /\/page\/worker-url\.[\w-]+\.ts$/;
const READERS = ['src', 'test', 'bench', 'demo', 'eval'].map((dir) => join(root, dir));
/** Every file whose imports may close a circle: the readers, the scripts, the config files at the root. */
const REPOSITORY = [...READERS, join(root, 'scripts')];

const SOURCE = /\.(ts|mts|mjs|js)$/;

function sourceFiles(dir, files = []) {
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) sourceFiles(path, files);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The config files at the repository's root (vite.config.ts, vitest.config.ts). */
const rootFiles = () =>
  readdirSync(root)
    .filter((name) => SOURCE.test(name) && !name.endsWith('.d.ts') && statSync(join(root, name)).isFile())
    .map((name) => join(root, name));

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

/** What one file imports (by module, the names or '*' for all) and exports (its own names, and modules it re-exports whole). */
function readModule(file) {
  const code = readFileSync(file, 'utf8');
  const parsed = parseSync(file, code);
  // Outside src/ a file may not parse on purpose (a test fixture of a broken engine module): it imports nothing.
  if (parsed.errors.length && file.startsWith(src))
    throw new Error(`${relative(root, file)} does not parse: ${parsed.errors[0].message}`);
  const imports = new Map();
  const use = (spec, name) => {
    const target = resolveImport(file, spec);
    if (!target) return;
    if (!imports.has(target)) imports.set(target, new Set());
    imports.get(target).add(name);
  };
  for (const entry of parsed.module.staticImports) {
    if (entry.entries.length === 0) use(entry.moduleRequest.value, undefined);
    for (const item of entry.entries)
      use(
        entry.moduleRequest.value,
        item.importName.kind === 'Name' ? item.importName.name : item.importName.kind === 'Default' ? 'default' : '*',
      );
  }
  const exported = new Set();
  const reexportsAll = [];
  /** Exported types, and the text of the file's other export statements, in which a type may be named. */
  const types = new Set();
  const statements = [];
  for (const statement of parsed.module.staticExports) {
    for (const item of statement.entries) {
      const name = item.exportName.kind === 'Default' ? 'default' : item.exportName.name;
      if (item.moduleRequest) {
        const whole = item.importName.kind === 'AllButDefault' || item.importName.kind === 'All';
        use(item.moduleRequest.value, whole ? '*' : item.importName.name);
        if (item.importName.kind === 'AllButDefault') reexportsAll.push(resolveImport(file, item.moduleRequest.value));
        else if (name) exported.add(name);
      } else if (name) {
        exported.add(name);
        if (item.isType) types.add(name);
        statements.push({ name, text: code.slice(statement.start, statement.end) });
      }
    }
  }
  /** A type named in another export of this file (its signature, its fields) is part of that export. */
  const namedInExports = new Set(
    [...types].filter((type) => {
      const word = new RegExp(`\\b${type}\\b`);
      return statements.some((other) => other.name !== type && word.test(other.text));
    }),
  );
  // import('./x'): whatever it destructures, every export of x may be used.
  for (const dynamic of parsed.module.dynamicImports) {
    const spec = code.slice(dynamic.moduleRequest.start, dynamic.moduleRequest.end).replace(/^['"`]|['"`]$/g, '');
    use(spec, '*');
  }
  return { imports, exported, namedInExports, reexportsAll: reexportsAll.filter(Boolean) };
}

const srcFiles = sourceFiles(src).filter((file) => file.endsWith('.ts'));
const allFiles = [...new Set([...srcFiles, ...REPOSITORY.flatMap((dir) => sourceFiles(dir)), ...rootFiles()])];
const modules = new Map();
for (const file of allFiles) modules.set(file, readModule(file));

// Circles: Tarjan's strongly connected components of the whole repository's graph; each one is
// reported with one path around it.
const graph = new Map(
  allFiles.map((file) => [file, [...modules.get(file).imports.keys()].filter((target) => modules.has(target))]),
);
const circles = [];
{
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const visit = (file) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file).includes(file)) circles.push(group);
  };
  for (const file of allFiles) if (!index.has(file)) visit(file);
}

/** One way around a circle: from its first file back to it, inside the group. */
function pathAround(group) {
  const members = new Set(group);
  const start = [...group].sort()[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    for (const next of graph.get(file)) {
      if (next === start) {
        const path = [start];
        for (let at = file; at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return group;
}

// Unused exports: a name no file imports from its file (directly, or through a re-export of it).
const used = new Map();
const markUsed = (file, name) => {
  if (!used.has(file)) used.set(file, new Set());
  if (used.get(file).has(name)) return;
  used.get(file).add(name);
  const module = modules.get(file);
  // A name re-exported whole (export * from) is used where it comes from.
  if (module && (name === '*' || !module.exported.has(name)))
    for (const origin of module.reexportsAll) markUsed(origin, name);
};
for (const [file, module] of modules)
  for (const [target, names] of module.imports) for (const name of names) markUsed(target, name ?? '');
for (const entry of ENTRIES) markUsed(entry, '*');
const unused = [];
for (const file of srcFiles) {
  if (ENTRIES.includes(file) || STAND_INS.test(file)) continue;
  const names = used.get(file) ?? new Set();
  if (names.has('*')) continue;
  const { exported, namedInExports } = modules.get(file);
  for (const name of exported) {
    const line = `${relative(root, file)}: ${name}`;
    if (!names.has(name) && !namedInExports.has(name)) unused.push(line);
  }
}

const problems = [
  ...circles.map(
    (group) =>
      `import circle: ${pathAround(group)
        .map((file) => relative(root, file))
        .join(' → ')}`,
  ),
  ...unused.map((line) => `unused export (no file imports it; drop the export, or the code): ${line}`),
];
if (problems.length) {
  console.error(`The import graph is not clean:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `No import circle in the ${allFiles.length} files of the repository, and no unused export in the ${srcFiles.length} of src/.`,
);
