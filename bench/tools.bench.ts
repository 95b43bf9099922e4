/**
 * The JSON Schema validator that guards every imported tool's call, beside
 * @cfworker/json-schema measured in the same run: the cost of one call's
 * arguments against a realistic MCP tool schema (valid, and invalid with
 * every fault listed), and the share of the official JSON-Schema-Test-Suite
 * each gets right, with the invalid values each lets through. The peer runs
 * behind our message layer (cfworker-validate.ts), so both produce the same
 * result: our messages, defaults filled in, a plain copy.
 */
import { Validator, type Schema as CfSchema } from '@cfworker/json-schema';
import type { JsonSchema } from '../src/tools/declaration';
import { formatIssues } from '../src/tools/format-issues';
import { jsonSchemaProblems } from '../src/tools/json-schema-check';
import { validateJsonSchema } from '../src/tools/json-schema-validate';
import { runSuite, type Draft, type SuiteGroup } from '../test/tools/json-schema-suite';
import { cfworkerRefuses, validateWithCfworker } from './cfworker-validate';
import { measure, type BenchRow, type BenchSuite } from './harness';

/**
 * A pull-request tool as MCP servers list it (after GitHub's MCP server and
 * pydantic-generated schemas): $defs behind $ref, Optional fields as anyOf
 * with null, enums, defaults, bounds, patterns, nested arrays of objects.
 */
const createPullRequest: JsonSchema = {
  type: 'object',
  properties: {
    owner: { type: 'string', pattern: '^[A-Za-z0-9-]+$', description: 'Repository owner' },
    repo: { type: 'string', minLength: 1, maxLength: 100 },
    title: { type: 'string', minLength: 1, maxLength: 256 },
    body: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
    head: { type: 'string', description: 'The branch with the changes' },
    base: { type: 'string', default: 'main' },
    draft: { type: 'boolean', default: false },
    labels: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true, default: [] },
    reviewers: { type: 'array', items: { $ref: '#/$defs/Reviewer' }, maxItems: 15 },
    merge: { $ref: '#/$defs/MergeOptions' },
    milestone: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
  },
  required: ['owner', 'repo', 'title', 'head'],
  additionalProperties: false,
  $defs: {
    Reviewer: {
      type: 'object',
      properties: {
        login: { type: 'string', pattern: '^[A-Za-z0-9-]+$' },
        team: { type: 'boolean', default: false },
      },
      required: ['login'],
      additionalProperties: false,
    },
    MergeOptions: {
      type: 'object',
      properties: {
        method: { type: 'string', enum: ['merge', 'squash', 'rebase'], default: 'merge' },
        deleteBranch: { type: 'boolean', default: true },
        autoMergeAfterMinutes: { type: 'integer', minimum: 0, maximum: 10080 },
      },
      additionalProperties: false,
    },
  },
};

const validCall = {
  owner: 'octo-org',
  repo: 'web-app',
  title: 'Fix the date picker in Safari',
  body: 'Closes #412. The picker now reads the locale from the page.',
  head: 'fix/date-picker',
  labels: ['bug', 'frontend'],
  reviewers: [{ login: 'amy' }, { login: 'web-team', team: true }],
  merge: { method: 'squash' },
  milestone: 7,
};

const invalidCall = {
  owner: 'octo org',
  title: '',
  body: 3,
  head: 'fix/date-picker',
  labels: ['bug', 'bug'],
  reviewers: [{ login: 'amy', role: 'owner' }, {}],
  merge: { method: 'fast-forward', autoMergeAfterMinutes: -5 },
  milestone: 0,
  extra: true,
};

const CALLS = 200;

function suiteFiles(draft: Draft): Record<string, SuiteGroup[]> {
  // As text, parsed here: vite's JSON modules are object literals, where a key "__proto__" sets the prototype.
  const texts =
    draft === 'draft7'
      ? import.meta.glob<string>('@shared-data/json-schema-test-suite/draft7/*.json', {
          eager: true,
          query: '?raw',
          import: 'default',
        })
      : import.meta.glob<string>('@shared-data/json-schema-test-suite/draft2020-12/*.json', {
          eager: true,
          query: '?raw',
          import: 'default',
        });
  return Object.fromEntries(
    Object.entries(texts).map(([path, text]) => [path.split('/').pop()!, JSON.parse(text) as SuiteGroup[]]),
  );
}

const suite: BenchSuite = async () => {
  const rows: BenchRow[] = [];
  // The same outcome from both, or the comparison means nothing.
  const ours = validateJsonSchema(createPullRequest, validCall);
  const theirs = validateWithCfworker(createPullRequest, validCall);
  if (JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error('the two validators disagree on the valid call');
  const ourFaults = validateJsonSchema(createPullRequest, invalidCall);
  const theirFaults = validateWithCfworker(createPullRequest, invalidCall);
  if (ourFaults.ok || theirFaults.ok) throw new Error('the invalid call was accepted');
  if (formatIssues('t', ourFaults.issues) !== formatIssues('t', theirFaults.issues))
    throw new Error('the two validators word the invalid call differently');

  const cfworkerBare = new Validator(structuredClone(createPullRequest) as CfSchema, '2020-12', false);
  const time = (fn: () => unknown) =>
    measure(
      () => {
        for (let i = 0; i < CALLS; i++) fn();
      },
      { iterations: 40, warmup: 5 },
    );
  for (const [label, args] of [
    ['valid', validCall],
    ['invalid, 11 faults', invalidCall],
  ] as const) {
    const ourTime = await time(() => validateJsonSchema(createPullRequest, args));
    const peerTime = await time(() => validateWithCfworker(createPullRequest, args));
    const bareTime = await time(() => cfworkerBare.validate(args));
    const perCall = (ms: number) => (ms * 1000) / CALLS;
    rows.push({
      group: 'tools',
      name: `validate one call's arguments, MCP create_pull_request schema (${label})`,
      median: perCall(ourTime.median),
      p95: perCall(ourTime.p95),
      unit: 'µs',
      peer: { name: '@cfworker/json-schema behind our layer', median: perCall(peerTime.median) },
      note: `cfworker's verdict alone (no messages, defaults or copy): ${perCall(bareTime.median).toFixed(1)} µs`,
    });
  }

  for (const draft of ['draft2020-12', 'draft7'] as const) {
    const files = suiteFiles(draft);
    if (Object.keys(files).length === 0) continue; // ../shared/data is missing: scripts/bench.mjs says so
    const ourTally = runSuite(draft, files, (schema, instance) => {
      if (jsonSchemaProblems(schema as JsonSchema | boolean).length > 0) return 'refused';
      return validateJsonSchema(schema as JsonSchema | boolean, instance).ok ? 'valid' : 'invalid';
    });
    const peerTally = runSuite(draft, files, (schema, instance) => {
      if (jsonSchemaProblems(schema as JsonSchema | boolean).length > 0 || cfworkerRefuses(schema)) return 'refused';
      try {
        return validateWithCfworker(schema as JsonSchema | boolean, instance).ok ? 'valid' : 'invalid';
      } catch {
        return 'refused';
      }
    });
    rows.push({
      group: 'tools',
      name: `JSON-Schema-Test-Suite ${draft}: right verdicts (${ourTally.total} tests, remote refs left out)`,
      median: ourTally.rate * 100,
      unit: '%',
      peer: { name: '@cfworker/json-schema behind our layer', median: peerTally.rate * 100 },
      target: draft === 'draft7' ? '≥ 99%, 0 accepted invalid' : '≥ 97%, 0 accepted invalid',
      note: `invalid values accepted: ours ${ourTally.silentAccepts}, cfworker ${peerTally.silentAccepts}; schemas refused: ours ${ourTally.refused}, cfworker ${peerTally.refused} tests`,
    });
  }
  return rows;
};

export default suite;
