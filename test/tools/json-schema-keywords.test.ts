import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/tools/declaration';
import { formatIssues } from '../../src/tools/format-issues';
import { validateJsonSchema } from '../../src/tools/json-schema-validate';

function problems(schema: JsonSchema | boolean, value: unknown): string {
  const result = validateJsonSchema(schema, value);
  return result.ok ? '' : formatIssues('t', result.issues);
}

function valueOf(schema: JsonSchema | boolean, value: unknown): unknown {
  const result = validateJsonSchema(schema, value);
  if (!result.ok) throw new Error(formatIssues('t', result.issues));
  return result.value;
}

describe('defaults are applied after validation, to a valid value only', () => {
  it('never checks a default as if the model had written it', () => {
    // A default that breaks its own minLength used to turn `{}` into an error.
    const schema = { type: 'object', properties: { name: { type: 'string', minLength: 3, default: '' } } };
    expect(valueOf(schema, {})).toEqual({ name: '' });
    expect(problems(schema, { name: '' })).toBe('t: "name" must be at least 3 characters long');
  });

  it('does not let a default stand in for a required field the model left out', () => {
    const schema = { type: 'object', properties: { mode: { default: 'fast' } }, required: ['mode'] };
    expect(problems(schema, {})).toBe('t: "mode" is required');
  });

  it('applies no default from an option that did not match, from an if condition, or from a not', () => {
    const schema = {
      type: 'object',
      oneOf: [
        { properties: { kind: { const: 'a' }, fromA: { default: 1 } }, required: ['kind'] },
        { properties: { kind: { const: 'b' }, fromB: { default: 2 } }, required: ['kind'] },
      ],
      if: { properties: { fromIf: { default: 3 } } },
      then: { properties: { fromThen: { default: 4 } } },
      not: { properties: { fromNot: { default: 5 } }, required: ['never'] },
    };
    expect(valueOf(schema, { kind: 'b' })).toEqual({ kind: 'b', fromB: 2, fromThen: 4 });
  });

  it('takes the first default given for a field, and copies it for each use', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/list' }, b: { $ref: '#/$defs/list' } },
      allOf: [{ properties: { a: { default: ['from allOf'] } } }],
      $defs: { list: { type: 'array', default: [] } },
    };
    const value = valueOf(schema, {}) as { a: unknown[]; b: unknown[] };
    expect(value).toEqual({ a: [], b: [] });
    expect(value.a).not.toBe(value.b);
  });
});

describe('applicators that see what the others evaluated', () => {
  const person = {
    type: 'object',
    allOf: [{ properties: { name: { type: 'string' } }, required: ['name'] }],
    properties: { age: { type: 'integer' } },
    unevaluatedProperties: false,
  };

  it('unevaluatedProperties: false refuses fields no subschema declared, even through allOf', () => {
    expect(problems(person, { name: 'Ada', age: 36 })).toBe('');
    expect(problems(person, { name: 'Ada', nickname: 'A' })).toBe('t: "nickname" is not an allowed field');
  });

  it('unevaluatedProperties counts the fields of the anyOf options and if/then branches that matched', () => {
    const schema = {
      type: 'object',
      anyOf: [{ properties: { email: { type: 'string' } }, required: ['email'] }, { required: ['phone'] }],
      if: { properties: { kind: { const: 'company' } }, required: ['kind'] },
      then: { properties: { vat: { type: 'string' } } },
      unevaluatedProperties: { type: 'number' },
    };
    expect(problems(schema, { email: 'a@b.c', kind: 'company', vat: 'DE1' })).toBe('');
    expect(problems(schema, { phone: '1', vat: 'DE1' })).toBe('t: "phone" must be a number; "vat" must be a number');
  });

  it('unevaluatedItems refuses items past a tuple declared in allOf', () => {
    const schema = { allOf: [{ prefixItems: [{ type: 'string' }, { type: 'number' }] }], unevaluatedItems: false };
    expect(problems(schema, ['a', 1])).toBe('');
    expect(problems(schema, ['a', 1, true])).toBe('t: "[2]" is not allowed');
  });

  it('dependentSchemas and draft-07 dependencies apply only when their field is there', () => {
    const schema = {
      type: 'object',
      dependentSchemas: { card: { required: ['billingAddress'] } },
      dependencies: { coupon: ['cart'], gift: { properties: { note: { type: 'string', maxLength: 5 } } } },
    };
    expect(problems(schema, { note: 'far too long' })).toBe('');
    expect(problems(schema, { card: '4111', coupon: 'X', gift: true, note: 'far too long' })).toBe(
      't: "cart" is required when "coupon" is given; "billingAddress" is required; "note" must be at most 5 characters long',
    );
  });
});

describe('references inside the schema', () => {
  it('follow $anchor, $id-relative URIs and JSON pointers with escapes', () => {
    const schema = {
      $id: 'https://example.com/order.json',
      type: 'object',
      properties: {
        item: { $ref: 'item.json' },
        size: { $ref: '#size' },
        'odd/name': { $ref: '#/$defs/a~1b' },
      },
      $defs: {
        item: { $id: 'item.json', type: 'string', minLength: 2 },
        size: { $anchor: 'size', enum: ['S', 'M', 'L'] },
        'a/b': { type: 'integer' },
      },
    };
    expect(problems(schema, { item: 'mug', size: 'M', 'odd/name': 3 })).toBe('');
    expect(problems(schema, { item: 'x', size: 'XL', 'odd/name': 'three' })).toBe(
      't: "item" must be at least 2 characters long; "size" must be one of "S", "M", "L"; "["odd/name"]" must be an integer',
    );
  });

  it('follow $dynamicRef to the outermost $dynamicAnchor in scope: a generic list made specific', () => {
    const list = {
      $id: 'https://example.com/list',
      type: 'array',
      items: { $dynamicRef: '#item' },
      $defs: { item: { $dynamicAnchor: 'item' } },
    };
    const numbers = {
      $id: 'https://example.com/numbers',
      $ref: 'list',
      $defs: { list, number: { $dynamicAnchor: 'item', type: 'number' } },
    };
    expect(problems(list, ['a', 1])).toBe('');
    expect(problems(numbers, [1, 2])).toBe('');
    expect(problems(numbers, [1, 'two'])).toBe('t: "[1]" must be a number');
  });

  it('under draft-07, $ref stands alone and its siblings are ignored; under 2020-12 they apply', () => {
    const parts = { $ref: '#/definitions/text', maxLength: 2, definitions: { text: { type: 'string' } } };
    expect(problems({ $schema: 'http://json-schema.org/draft-07/schema#', ...parts }, 'long')).toBe('');
    expect(problems(parts, 'long')).toBe('t: the arguments must be at most 2 characters long');
  });

  it('fail closed on a reference that points nowhere, instead of letting anything through', () => {
    expect(problems({ properties: { a: { $ref: '#/$defs/missing' } } }, { a: 1 })).toBe(
      't: "a" cannot be checked: the schema\'s reference "#/$defs/missing" points nowhere',
    );
  });
});

describe('values as a model writes them', () => {
  it('judges a "__proto__" field as written, and still leaves it out of the copy a tool gets', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"number"}}}') as JsonSchema;
    expect(problems(schema, JSON.parse('{"__proto__":"not a number"}'))).toBe('t: "__proto__" must be a number');
    const value = valueOf(schema, JSON.parse('{"__proto__":12,"a":1}'));
    expect(Object.keys(value as object)).toEqual(['a']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('finds duplicates as JSON sees them: key order and 1.0 do not matter, "1" and 1 differ', () => {
    const unique = { type: 'array', uniqueItems: true };
    expect(
      problems(unique, [
        { a: 1, b: [2] },
        { b: [2], a: 1 },
      ]),
    ).toBe('t: the arguments must not contain duplicate items (items 0 and 1 are equal)');
    expect(problems(unique, [1, '1', [1], { 1: 1 }, null, 'null'])).toBe('');
    expect(problems(unique, [0, 2, 1.0, 2.0])).toBe(
      't: the arguments must not contain duplicate items (items 1 and 3 are equal)',
    );
  });

  it('judges multipleOf without overflowing: 1e308 is no multiple of 0.123456789', () => {
    expect(problems({ type: 'integer', multipleOf: 0.123456789 }, 1e308)).toBe(
      't: the arguments must be a multiple of 0.123456789',
    );
    expect(problems({ multipleOf: 1.5 }, 4.5)).toBe('');
    expect(problems({ multipleOf: 7 }, 49)).toBe('');
    expect(problems({ multipleOf: 7 }, 50)).toBe('t: the arguments must be a multiple of 7');
  });
});
