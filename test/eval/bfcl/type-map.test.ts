// BFCL's types as JSON Schema: what each name becomes (as BFCL maps them for function-calling models),
// then every function of every category made into a tool, and every possible answer checked against
// the schema its tool is declared with.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { BFCL_CATEGORIES } from '../../../eval/bfcl/categories';
import { loadCategory } from '../../../eval/bfcl/load';
import { possibleCalls } from '../../../eval/bfcl/possible-calls';
import { pyType } from '../../../eval/bfcl/python-values';
import { bfclType, paramSchema, parametersSchema } from '../../../eval/bfcl/type-map';
import { toolName } from '../../../eval/bfcl/tool-name';
import type { BfclCase, BfclParam } from '../../../eval/bfcl/types';
import { fromMCPTool } from '../../../src/tools/mcp';
import { validateJsonSchema } from '../../../src/tools/json-schema-validate';
import { hasSharedData, sharedDataPath } from '../../shared-data';

describe('BFCL’s type names', () => {
  test.each([
    ['string', 'string'],
    ['integer', 'integer'],
    ['float', 'number'],
    ['boolean', 'boolean'],
    ['array', 'array'],
    ['tuple', 'array'],
    ['dict', 'object'],
    ['any', 'string'],
    ['no-such-type', 'string'],
  ])('%s is declared as a JSON Schema %s', (bfcl, schema) => {
    expect(paramSchema({ type: bfcl }).type).toBe(schema);
  });

  test('a missing type is a string, as BFCL casts it', () => {
    expect(paramSchema({ description: 'x' })).toEqual({ type: 'string', description: 'x' });
    expect(bfclType(undefined).python).toBe('str');
  });

  test('items and dict keys map the same way', () => {
    const param: BfclParam = {
      type: 'array',
      items: { type: 'dict', properties: { at: { type: 'tuple', items: { type: 'float' } } }, required: ['at'] },
    };
    expect(paramSchema(param)).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: { at: { type: 'array', items: { type: 'number' } } },
        required: ['at'],
      },
    });
  });

  test('an enum of strings on a list is read as its items’ enum (no list could be one of them)', () => {
    const param = { type: 'array', items: { type: 'string' }, enum: ['a', 'b'] };
    expect(paramSchema(param)).toEqual({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } });
  });

  test('JSON Schema’s own keywords stay; BFCL’s `optional` goes', () => {
    const param = { type: 'integer', enum: [1, 2], default: 1, maximum: 2, optional: true };
    expect(paramSchema(param)).toEqual({ type: 'integer', enum: [1, 2], default: 1, maximum: 2 });
  });

  test('a function’s parameters are an object that takes only what it declares', () => {
    const schema = parametersSchema({
      name: 'f',
      parameters: { type: 'dict', properties: { a: { type: 'float' } }, required: ['a'] },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: { a: { type: 'number' } },
      required: ['a'],
      additionalProperties: false,
    });
  });
});

describe.skipIf(!hasSharedData('bfcl'))('every BFCL function as a tool', () => {
  async function all(): Promise<BfclCase[]> {
    const read = (path: string) => readFile(sharedDataPath('bfcl', path), 'utf8');
    return (await Promise.all(BFCL_CATEGORIES.map((category) => loadCategory(category, read)))).flat();
  }

  test('each becomes a tool (named with underscores) whose schema our runtime accepts', async () => {
    let made = 0;
    for (const testCase of await all()) {
      for (const fn of testCase.functions) {
        const tool = fromMCPTool(
          { name: fn.name, description: fn.description, inputSchema: parametersSchema(fn) },
          () => 'ok',
          { name: toolName(fn.name) },
        );
        expect(tool.name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);
        made++;
      }
    }
    expect(made).toBe(8576);
    // 8,576 tools built and checked: seconds on a busy 2-core machine, past vitest's 5 s default.
  }, 60_000);

  test('each possible answer fits its schema, unless BFCL’s data gives a value of another type than declared', async () => {
    const misfits: string[] = [];
    const contradictions: string[] = [];
    let checked = 0;
    for (const testCase of await all()) {
      for (const call of possibleCalls(testCase)) {
        const fn = testCase.functions.find((candidate) => toolName(candidate.name) === call.name)!;
        const result = validateJsonSchema(parametersSchema(fn), call.args);
        checked++;
        if (result.ok) continue;
        // The checker reads an answer of another type as a variable (type_checker's is_variable), and
        // never looks at `enum`: where BFCL's data contradicts its own declaration, that is the data's
        // doing, not the mapping's. Anything else is a mapping that refuses a right answer.
        const args = call.args as Record<string, unknown>;
        const declaredElsewhere = Object.entries(args).some(([param, value]) => {
          const declared = fn.parameters.properties[param];
          return !declared || !fitsDeclaredType(value, declared) || outsideEnum(value, declared);
        });
        if (declaredElsewhere) contradictions.push(testCase.id);
        if (!declaredElsewhere) misfits.push(`${testCase.id}: ${JSON.stringify(result.issues).slice(0, 200)}`);
      }
    }
    expect(checked).toBe(3152);
    expect(misfits).toEqual([]);
    expect(contradictions.length).toMatchInlineSnapshot(`22`);
  }, 60_000);
});

/** Whether a value (and a list's items, a dict's keys) has the type BFCL declares for it. */
function fitsDeclaredType(value: unknown, param: BfclParam): boolean {
  const expected = bfclType(param.type).python;
  if (pyType(value, expected) !== expected) return false;
  if (Array.isArray(value) && param.items) return value.every((item) => fitsDeclaredType(item, param.items!));
  if (expected === 'dict' && param.properties)
    return Object.entries(value as object).every(
      ([key, item]) => !param.properties![key] || fitsDeclaredType(item, param.properties![key]!),
    );
  return true;
}

/** Whether a value (or a list's item) lies outside the enum BFCL declares for it. */
function outsideEnum(value: unknown, param: BfclParam): boolean {
  if (Array.isArray(value))
    return value.some((item) => outsideEnum(item, param.items ?? {}) || outsideEnum(item, { enum: param.enum }));
  return Array.isArray(param.enum) && !param.enum.includes(value);
}
