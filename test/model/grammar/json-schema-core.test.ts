/**
 * The grammar builder reads the validator's own JSON Schema core (tools/json-schema-index.ts): a reference
 * the validator follows, by `$anchor` or by a subschema's `$id`, the grammar follows too, so such a tool's
 * calls are constrained instead of left to its name only, and what the grammar allows the validator
 * accepts. Checked with xgrammar, the grammar engine web-llm embeds. (Before, the grammar followed JSON
 * pointers only, and refused these schemas: "/size refers to #size, which the schema does not define".)
 */
import { describe, expect, it } from 'vitest';
import { argumentsSupport } from '../../../src/model/grammar/grammar-support';
import type { JsonSchema } from '../../../src/tools/declaration';
import { validateJsonSchema } from '../../../src/tools/json-schema-validate';
import { Grammar, Testings } from '../grammar-proof/xgrammar';

/** Whether the grammar of `schema`'s arguments, in JSON, allows `text`. */
async function allows(schema: JsonSchema, text: string): Promise<boolean> {
  const { grammar, unsupported } = argumentsSupport(schema, 'json');
  if (grammar === undefined) throw new Error(`no grammar: ${unsupported}`);
  const compiled = await Grammar.fromEBNF(grammar);
  try {
    return await Testings.isGrammarAcceptString(compiled, text);
  } finally {
    compiled.dispose();
  }
}

/** The grammar and the validator say the same of each call. */
async function expectAgreement(schema: JsonSchema, calls: Record<string, boolean>) {
  for (const [text, valid] of Object.entries(calls)) {
    expect(validateJsonSchema(schema, JSON.parse(text)).ok, `validator: ${text}`).toBe(valid);
    expect(await allows(schema, text), `grammar: ${text}`).toBe(valid);
  }
}

describe('the grammar follows references as the validator does', () => {
  it('by $anchor: the tool is constrained, to the values the anchored schema allows', async () => {
    const schema = {
      type: 'object',
      properties: { size: { $ref: '#size' } },
      required: ['size'],
      additionalProperties: false,
      $defs: { size: { $anchor: 'size', enum: ['small', 'large'] } },
    };
    expect(argumentsSupport(schema, 'json').unsupported).toBeUndefined();
    await expectAgreement(schema, { '{"size": "small"}': true, '{"size": "large"}': true, '{"size": "huge"}': false });
  });

  it("by a subschema's $id, relative to the schema's own: the tool is constrained", async () => {
    const schema = {
      $id: 'https://example.com/tools/order.json',
      type: 'object',
      properties: { count: { $ref: 'count.json' } },
      required: ['count'],
      additionalProperties: false,
      $defs: { count: { $id: 'count.json', type: 'integer', minimum: 1, maximum: 3 } },
    };
    expect(argumentsSupport(schema, 'json').unsupported).toBeUndefined();
    await expectAgreement(schema, { '{"count": 1}': true, '{"count": 3}': true, '{"count": 4}': false });
  });

  it('a reference to nowhere is still no grammar, and says where it points', () => {
    const schema = { type: 'object', properties: { x: { $ref: '#/$defs/missing' } } };
    expect(argumentsSupport(schema, 'json').unsupported).toBe(
      '/x refers to #/$defs/missing, which the schema does not define',
    );
  });
});
