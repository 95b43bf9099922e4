/**
 * Runs the official JSON-Schema-Test-Suite (../shared/data/json-schema-test-suite/) through
 * a validator and counts its verdicts. Shared by the conformance test (node) and
 * the bench (browser), so it reads no files itself: callers hand it the groups.
 *
 * What is left out, and why:
 * - optional/ (not carried over): format assertion, bignum, ECMA regex details,
 *   behaviour the spec leaves to implementations.
 * - groups whose schema refers to a document outside itself: a `$ref` or
 *   `$dynamicRef` to http://localhost:1234/… (the suite's remotes server), to a
 *   metaschema, or a `$schema` naming a custom metaschema. A tool's schema must
 *   be self-contained (the worker fetches nothing), so our validator refuses
 *   such a schema when the tool is made; the suite's verdicts for them need the
 *   remote document. Which groups these are is decided here, from the schema
 *   alone, not by asking the validator.
 */

export type Draft = 'draft2020-12' | 'draft7';

export interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

/** A validator's answer: refused means the tool would not be made from this schema. */
export type Verdict = 'valid' | 'invalid' | 'refused';
export type Judge = (schema: unknown, instance: unknown) => Verdict;

export interface SuiteMiss {
  file: string;
  group: string;
  test: string;
  expected: boolean;
  got: Verdict;
}

export interface SuiteTally {
  draft: Draft;
  /** Tests judged (remote groups left out). */
  total: number;
  correct: number;
  /** Tests the suite marks invalid that the validator accepted. */
  silentAccepts: number;
  /** Tests whose schema the validator refused to make a tool from. */
  refused: number;
  /** Tests left out because their schema refers to a remote document. */
  skipped: number;
  rate: number;
  misses: SuiteMiss[];
}

const METASCHEMAS: Record<Draft, string> = {
  'draft2020-12': 'https://json-schema.org/draft/2020-12/schema',
  draft7: 'http://json-schema.org/draft-07/schema#',
};
const KNOWN_DIALECTS = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'https://json-schema.org/draft/2020-12/schema#',
  'http://json-schema.org/draft-07/schema',
  'http://json-schema.org/draft-07/schema#',
]);
/** Where a schema without $id lives, for resolving its relative references. */
const DOCUMENT_BASE = 'https://suite.invalid/root.json';
/** Values, not schemas: an `$id` or `$ref` inside them is data. */
const VALUE_KEYWORDS = new Set(['const', 'enum', 'examples', 'default']);

export function runSuite(draft: Draft, files: Record<string, SuiteGroup[]>, judge: Judge): SuiteTally {
  const tally: SuiteTally = {
    draft,
    total: 0,
    correct: 0,
    silentAccepts: 0,
    refused: 0,
    skipped: 0,
    rate: 0,
    misses: [],
  };
  for (const [file, groups] of Object.entries(files)) {
    for (const group of groups) {
      if (refersOutside(group.schema)) {
        tally.skipped += group.tests.length;
        continue;
      }
      const schema = withDialect(group.schema, draft);
      for (const test of group.tests) {
        const got = judge(schema, test.data);
        tally.total++;
        if (got === 'refused') tally.refused++;
        if ((got === 'valid') === test.valid && got !== 'refused') {
          tally.correct++;
          continue;
        }
        if (!test.valid && got === 'valid') tally.silentAccepts++;
        tally.misses.push({ file, group: group.description, test: test.description, expected: test.valid, got });
      }
    }
  }
  tally.rate = tally.total === 0 ? 0 : tally.correct / tally.total;
  return tally;
}

/**
 * The suite knows each schema's draft from its folder; a tool's schema says it
 * with `$schema`. Schemas of the suite that leave it out get their folder's.
 */
function withDialect(schema: unknown, draft: Draft): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || '$schema' in schema) return schema;
  return { $schema: METASCHEMAS[draft], ...schema };
}

/** True when some reference in the schema needs a document the schema does not contain. */
export function refersOutside(root: unknown): boolean {
  const defined = new Set<string>();
  const references: string[] = [];
  let customDialect = false;

  const visit = (node: unknown, base: string): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, base);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const schema = node as Record<string, unknown>;
    let here = base;
    if (typeof schema.$id === 'string') {
      here = resolve(schema.$id, base) ?? base;
      defined.add(withoutFragment(here));
    }
    if (typeof schema.$schema === 'string' && !KNOWN_DIALECTS.has(schema.$schema)) customDialect = true;
    for (const keyword of ['$ref', '$dynamicRef']) {
      const ref = schema[keyword];
      if (typeof ref === 'string') references.push(resolve(ref, here) ?? ref);
    }
    for (const [key, value] of Object.entries(schema)) {
      if (!VALUE_KEYWORDS.has(key)) visit(value, here);
    }
  };

  defined.add(DOCUMENT_BASE);
  visit(root, DOCUMENT_BASE);
  return customDialect || references.some((uri) => !defined.has(withoutFragment(uri)));
}

function resolve(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}

/** "97.4%" */
export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}
