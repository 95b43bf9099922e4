import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/tools/declaration';
import { jsonSchemaProblems } from '../../src/tools/json-schema-check';
import { validateJsonSchema } from '../../src/tools/json-schema-validate';
import { hasSharedData, sharedDataPath } from '../shared-data';
import { percent, runSuite, type Draft, type Judge, type SuiteGroup } from './json-schema-suite';

/**
 * The official JSON-Schema-Test-Suite (../shared/data/json-schema-test-suite/,
 * see its README) through the validator that guards every tool call, the way a tool
 * is made: the schema is checked first (json-schema-check.ts; a refused schema
 * counts as a wrong verdict), then each instance is validated. Groups whose
 * schema refers to a remote document (http://localhost:1234/…, a metaschema)
 * are left out, as json-schema-suite.ts explains; the test names say how many.
 */
const TARGETS: Record<Draft, number> = { 'draft2020-12': 0.97, draft7: 0.99 };

function load(draft: Draft): Record<string, SuiteGroup[]> {
  const dir = sharedDataPath('json-schema-test-suite', draft);
  const files: Record<string, SuiteGroup[]> = {};
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    files[file] = JSON.parse(readFileSync(join(dir, file), 'utf8')) as SuiteGroup[];
  }
  return files;
}

const ours: Judge = (schema, instance) => {
  if (jsonSchemaProblems(schema as JsonSchema | boolean).length > 0) return 'refused';
  return validateJsonSchema(schema as JsonSchema | boolean, instance).ok ? 'valid' : 'invalid';
};

const suiteThere = hasSharedData('json-schema-test-suite');

describe.skipIf(!suiteThere).each(['draft2020-12', 'draft7'] as const)(
  'the official JSON Schema test suite, %s',
  (draft) => {
    const files = suiteThere ? load(draft) : {};
    const tally = runSuite(draft, files, ours);
    const target = TARGETS[draft];

    const verdicts = suiteThere
      ? `${percent(tally.rate)} of ${tally.total} tests (at least ${percent(target)}; ${tally.skipped} tests with remote refs left out)`
      : 'its tests (../shared/data/json-schema-test-suite/ is missing)';
    it(`gives the suite's verdict on ${verdicts}`, () => {
      expect(Object.keys(files).length).toBeGreaterThan(30);
      expect(tally.total).toBeGreaterThan(800);
      expect(tally.rate).toBeGreaterThanOrEqual(target);
    });

    it('never accepts an instance the suite marks invalid', () => {
      expect(tally.silentAccepts).toBe(0);
      expect(tally.misses.filter((miss) => !miss.expected)).toEqual([]);
    });

    it('refuses none of its schemas, and misses only where it asserts a format the spec leaves as an annotation', () => {
      expect(tally.refused).toBe(0);
      // email, date, time, uri, uuid, ipv4: a model's "tomorrow" for a date should be sent back (json-schema-formats.ts).
      for (const miss of tally.misses)
        expect(miss).toMatchObject({ file: 'format.json', expected: true, got: 'invalid' });
    });

    it('(control) counts a validator that accepts everything as accepting invalid instances', () => {
      const lax = runSuite(draft, files, () => 'valid');
      expect(lax.silentAccepts).toBeGreaterThan(300);
      expect(lax.rate).toBeLessThan(target);
    });
  },
);
