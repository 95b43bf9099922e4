import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/tools/declaration';
import { jsonSchemaProblems } from '../../src/tools/json-schema-check';
import { validateJsonSchema } from '../../src/tools/json-schema-validate';
import { formatIssues } from '../../src/tools/format-issues';

function problems(schema: JsonSchema | boolean, value: unknown): string {
  const result = validateJsonSchema(schema, value);
  return result.ok ? '' : formatIssues('t', result.issues);
}

describe('validateJsonSchema', () => {
  it('checks types, including lists of types, integer and null', () => {
    expect(problems({ type: 'integer' }, 3)).toBe('');
    expect(problems({ type: 'integer' }, 3.5)).toBe('t: the arguments must be an integer');
    expect(problems({ type: ['string', 'null'] }, null)).toBe('');
    expect(problems({ type: ['string', 'null'] }, 1)).toBe('t: the arguments must be a string or null');
    expect(problems({ type: 'string', nullable: true }, null)).toBe('');
    expect(problems({ type: 'object' }, [])).toBe('t: the arguments must be an object');
  });

  it('checks numbers: bounds, exclusive bounds (both drafts) and multipleOf', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { minimum: 1, maximum: 5 },
        b: { exclusiveMinimum: 0, exclusiveMaximum: 10 },
        c: { minimum: 0, exclusiveMinimum: true },
        d: { multipleOf: 0.1 },
      },
    };
    expect(problems(schema, { a: 1, b: 5, c: 1, d: 0.3 })).toBe('');
    expect(problems(schema, { a: 6, b: 0, c: 0, d: 0.35 })).toBe(
      't: "a" must be at most 5; "b" must be greater than 0; "c" must be greater than 0; "d" must be a multiple of 0.1',
    );
  });

  it('checks strings: length in characters, pattern and lenient formats', () => {
    const schema = {
      type: 'object',
      properties: {
        s: { type: 'string', minLength: 2, maxLength: 3 },
        p: { type: 'string', pattern: '^[a-z]+$' },
        when: { type: 'string', format: 'date-time' },
        id: { type: 'string', format: 'uuid' },
        site: { type: 'string', format: 'uri' },
        odd: { type: 'string', format: 'x-unknown' },
      },
    };
    expect(
      problems(schema, {
        s: '😀😀',
        p: 'abc',
        when: '2025-01-31T09:00:00Z',
        id: '123e4567-e89b-12d3-a456-426614174000',
        site: 'https://example.com',
        odd: '?',
      }),
    ).toBe('');
    const message = problems(schema, { s: 'abcd', p: 'A1', when: 'tomorrow', id: '42', site: 'example' });
    expect(message).toContain('"s" must be at most 3 characters long');
    expect(message).toContain('"p" must match the pattern /^[a-z]+$/');
    expect(message).toContain('"when" must be a valid date-time');
    expect(message).toContain('"id" must be a valid UUID');
    expect(message).toContain('"site" must be a valid absolute URI');
  });

  it('checks arrays: items, prefixItems, draft-07 tuples, bounds and uniqueness', () => {
    const schema = {
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: { type: 'number' },
      minItems: 2,
      uniqueItems: true,
    };
    expect(problems(schema, ['a', 1, 2])).toBe('');
    expect(problems(schema, ['a'])).toBe('t: the arguments must have at least 2 items');
    expect(problems(schema, [1, 'b', 2, 2])).toBe(
      't: "[0]" must be a string; "[1]" must be a number; the arguments must not contain duplicate items (items 2 and 3 are equal)',
    );
    const draft7 = { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false };
    expect(problems(draft7, ['a', 1])).toBe('');
    expect(problems(draft7, ['a', 1, 2])).toBe('t: the arguments must have at most 2 items');
  });

  it('checks objects: required, additionalProperties as a schema, patternProperties', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' } },
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: { type: 'number' },
      required: ['name'],
    };
    expect(problems(schema, { name: 'n', 'x-a': 's', other: 1 })).toBe('');
    expect(problems(schema, { 'x-a': 1, other: 'o' })).toBe(
      't: "name" is required; "x-a" must be a string; "other" must be a number',
    );
  });

  it('resolves $ref to $defs, definitions and itself, and fills defaults behind a $ref', () => {
    const schema = {
      type: 'object',
      properties: { mode: { $ref: '#/$defs/mode' }, tree: { $ref: '#/definitions/node' } },
      $defs: { mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' } },
      definitions: {
        node: {
          type: 'object',
          properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } },
          required: ['value'],
        },
      },
    };
    const ok = validateJsonSchema(schema, { tree: { value: 1, children: [{ value: 2, children: [] }] } });
    expect(ok).toEqual({
      ok: true,
      value: { mode: 'fast', tree: { value: 1, children: [{ value: 2, children: [] }] } },
    });
    expect(problems(schema, { mode: 'medium', tree: { value: 1, children: [{ children: [] }] } })).toBe(
      't: "mode" must be one of "fast", "slow"; "tree.children[0].value" is required',
    );
  });

  it('handles anyOf, oneOf, allOf and not with messages that say what would do', () => {
    expect(problems({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, true)).toBe(
      't: the arguments must be a string or an integer',
    );
    expect(problems({ anyOf: [{ const: 'a' }, { enum: ['b', 'c'] }] }, 'z')).toBe(
      't: the arguments must be "a" or one of "b", "c"',
    );
    const shapes = {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'number' } }, required: ['kind', 'r'] },
        {
          type: 'object',
          properties: { kind: { const: 'square' }, side: { type: 'number' } },
          required: ['kind', 'side'],
        },
      ],
    };
    expect(problems(shapes, { kind: 'square', side: 2 })).toBe('');
    expect(problems(shapes, { kind: 'square' })).toBe('t: "side" is required');
    expect(problems({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1)).toContain('must match exactly one');
    expect(problems({ allOf: [{ required: ['a'] }, { required: ['b'] }] }, {})).toBe(
      't: "a" is required; "b" is required',
    );
    expect(problems({ not: { type: 'string' } }, 'x')).toBe('t: the arguments is not allowed in this form');
  });

  it('keeps defaults of the anyOf branch that matched, not of the ones that failed', () => {
    const schema = {
      anyOf: [
        { type: 'object', properties: { a: { type: 'string' }, fromFirst: { default: 1 } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'string' }, fromSecond: { default: 2 } }, required: ['b'] },
      ],
    };
    expect(validateJsonSchema(schema, { b: 'x' })).toEqual({ ok: true, value: { b: 'x', fromSecond: 2 } });
  });

  it('accepts boolean schemas and ignores unknown keywords', () => {
    expect(problems(true, 1)).toBe('');
    expect(problems(false, 1)).toBe('t: the arguments is not allowed');
    expect(problems({ type: 'string', 'x-custom': 1, description: 'd', examples: ['a'] }, 'a')).toBe('');
  });

  it('stops on a $ref that loops without end instead of overflowing the stack', () => {
    expect(problems({ $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }, 1)).toContain('nested too deeply');
  });

  it('never modifies its input', () => {
    const input = { list: [{ q: 1 }] };
    const frozen = JSON.stringify(input);
    validateJsonSchema(
      {
        type: 'object',
        properties: { list: { type: 'array', items: { type: 'object', properties: { d: { default: 0 } } } } },
      },
      input,
    );
    expect(JSON.stringify(input)).toBe(frozen);
  });
});

describe('prototype pollution', () => {
  const open = { type: 'object', additionalProperties: true };
  const inputs = [
    JSON.parse('{"__proto__":{"polluted":1}}'),
    JSON.parse('{"constructor":{"prototype":{"polluted":1}}}'),
    JSON.parse('{"a":{"__proto__":{"polluted":1}},"b":[{"__proto__":{"polluted":1}}]}'),
  ];

  it('(control) the naive merge below really pollutes when handed the raw parsed input', () => {
    try {
      naiveMerge({}, inputs[1]);
      expect(({} as { polluted?: unknown }).polluted).toBe(1);
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
  });

  it.each(inputs)('drops __proto__, constructor and prototype keys from the validated copy (%#)', (input) => {
    const result = validateJsonSchema(open, input);
    expect(result.ok).toBe(true);
    const value = result.ok ? (result.value as Record<string, unknown>) : {};
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(false);
    expect(Object.prototype.hasOwnProperty.call(value, 'constructor')).toBe(false);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    // A tool that deep-merges its arguments, the usual way pollution happens:
    naiveMerge({}, value);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('does not let a schema default or a declared property named __proto__ reach a prototype', () => {
    const schema = { type: 'object', properties: { __proto__: { default: { polluted: 1 } } } };
    const hostile = JSON.parse('{"type":"object","properties":{"__proto__":{"default":{"polluted":1}}}}');
    for (const s of [schema, hostile]) {
      const result = validateJsonSchema(s, {});
      expect(result.ok && (result.value as { polluted?: unknown }).polluted).toBeFalsy();
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('jsonSchemaProblems', () => {
  it('finds refs that point nowhere, bad patterns and unknown types', () => {
    expect(
      jsonSchemaProblems({
        type: 'object',
        properties: { a: { $ref: '#/$defs/missing' }, b: { type: 'text' }, c: { pattern: '(' } },
      }),
    ).toEqual([
      'properties.a.$ref "#/$defs/missing" points nowhere (only local references such as "#/$defs/name" are supported)',
      'properties.b.type "text" is not a JSON Schema type',
      'properties.c.pattern "(" is not a valid regular expression',
    ]);
    expect(
      jsonSchemaProblems({
        type: 'object',
        properties: { a: { $ref: '#/$defs/x' } },
        $defs: { x: { type: 'string' } },
      }),
    ).toEqual([]);
  });
});

function naiveMerge(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const key in source) {
    const value = source[key];
    if (value && typeof value === 'object') {
      const existing = target[key];
      if (!existing || (typeof existing !== 'object' && typeof existing !== 'function')) target[key] = {};
      naiveMerge(target[key] as Record<string, unknown>, value as Record<string, unknown>);
    } else {
      target[key] = value;
    }
  }
  return target;
}
