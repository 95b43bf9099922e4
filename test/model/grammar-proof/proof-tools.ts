/**
 * The tools the random model calls: every schema shape that page tools
 * commonly use and that xgrammar enforces (enums, const, nested objects,
 * arrays of objects, optional and nullable fields, integer and number bounds,
 * string lengths, patterns and formats, unions, discriminated unions,
 * records). Keywords xgrammar 0.1.27 does not enforce (exclusive number
 * bounds, multipleOf, uniqueItems, allOf, dependentRequired, not, contains)
 * are left out: a call breaking them is caught by the validator, not the grammar.
 */
import { tool } from '../tools-fixture';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const proofTools = [
  tool(
    'add_todo',
    object(
      {
        text: { type: 'string' },
        due: { type: 'string', format: 'date' },
        priority: { enum: ['low', 'normal', 'high'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        // What zod 4 emits for z.string().startsWith('https://').
        link: { type: 'string', format: 'starts_with', pattern: '^https:\\/\\/.*' },
      },
      ['text'],
    ),
  ),
  tool('set_volume', object({ level: { type: 'integer', minimum: 0, maximum: 10 } }, ['level'])),
  tool('get_time', { type: 'object', properties: {} }),
  tool(
    'move_card',
    object(
      {
        card: object(
          { id: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{1,4}$' }, column: { enum: ['todo', 'doing', 'done'] } },
          ['id', 'column'],
        ),
        position: { type: 'integer', minimum: 0, maximum: 99 },
      },
      ['card'],
    ),
  ),
  tool(
    'set_price',
    object(
      {
        amount: { type: 'number', minimum: 0, maximum: 10000 },
        currency: { const: 'EUR' },
        discount: { type: 'number', minimum: 0, maximum: 1 },
        note: { type: ['string', 'null'], maxLength: 6 },
      },
      ['amount', 'currency'],
    ),
  ),
  tool(
    'find_products',
    object(
      {
        query: { type: 'string' },
        filters: {
          type: 'array',
          minItems: 1,
          maxItems: 3,
          items: object(
            {
              field: { enum: ['price', 'stock', 'rating'] },
              op: { enum: ['<', '>', '='] },
              value: { anyOf: [{ type: 'number' }, { type: 'string', maxLength: 4 }, { type: 'boolean' }] },
            },
            ['field', 'op', 'value'],
          ),
        },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
      },
      ['filters'],
    ),
  ),
  tool(
    'send_message',
    object(
      {
        to: { type: 'string', pattern: '^[a-z0-9.]+@[a-z0-9]+\\.[a-z]{2,4}$' },
        body: { type: 'string' },
        urgent: { type: 'boolean' },
        attachments: {
          type: 'array',
          maxItems: 2,
          items: object({ name: { type: 'string', maxLength: 5 }, bytes: { type: 'integer', minimum: 0 } }, ['name']),
        },
      },
      ['to', 'body'],
    ),
  ),
  tool(
    'draw_shape',
    object(
      {
        shape: {
          oneOf: [
            object({ kind: { const: 'circle' }, radius: { type: 'number', minimum: 0, maximum: 100 } }, [
              'kind',
              'radius',
            ]),
            object(
              {
                kind: { const: 'rect' },
                width: { type: 'integer', minimum: 1, maximum: 100 },
                height: { type: 'integer', minimum: 1, maximum: 100 },
              },
              ['kind', 'width', 'height'],
            ),
          ],
        },
        at: { type: 'string', format: 'date-time' },
      },
      ['shape'],
    ),
  ),
  tool(
    'tag_colors',
    object(
      {
        colors: {
          type: 'object',
          additionalProperties: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
          maxProperties: 3,
        },
        id: { type: 'string', format: 'uuid' },
      },
      ['colors'],
    ),
  ),
];

export const proofToolNames = proofTools.map((t) => t.name);
