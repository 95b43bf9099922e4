import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/tools/define-tool';
import { formatIssues } from '../../src/tools/format-issues';
import { toDeclaration } from '../../src/tools/to-declaration';
import { validateToolArgs, validateWithJsonSchema } from '../../src/tools/validate-args';
import { z } from '../../src/tools/zod';

const addTodo = defineTool({
  name: 'add_todo',
  description: 'Add an item to the todo list.',
  parameters: z.object({
    text: z.string().min(1),
    due: z.string().optional(),
    priority: z.enum(['low', 'high']).default('low'),
    items: z.array(z.object({ qty: z.number().int().min(1) })).optional(),
  }),
  execute: () => 'ok',
});
const declaration = toDeclaration(addTodo);

async function messages(args: unknown): Promise<{ zod: string; json: string }> {
  const zod = await validateToolArgs(addTodo, args);
  const json = validateWithJsonSchema(declaration, args);
  if (zod.ok || json.ok) throw new Error('expected both to fail');
  expect(zod.error.code).toBe('invalid-arguments');
  expect(json.error.code).toBe('invalid-arguments');
  return { zod: zod.error.message, json: json.error.message };
}

describe('argument validation, zod (page) and JSON Schema (worker)', () => {
  it('lists every failing path in one message, in the same words on both sides', async () => {
    const { zod, json } = await messages({ due: 5, items: [{ qty: 1 }, { qty: 0 }, {}] });
    for (const message of [zod, json]) {
      expect(message).toMatch(/^add_todo: /);
      expect(message).toContain('"text" is required');
      expect(message).toContain('"due" must be a string');
      expect(message).toContain('"items[1].qty" must be at least 1');
      expect(message).toContain('"items[2].qty" is required');
      expect(message).toContain('call add_todo again');
    }
    expect(zod).toBe(json);
  });

  it('names the allowed values of an enum and the kind expected at the root', async () => {
    const { zod, json } = await messages({ text: 'milk', priority: 'urgent' });
    expect(zod).toContain('"priority" must be one of "low", "high"');
    expect(json).toContain('"priority" must be one of "low", "high"');
    const root = await messages([1, 2]);
    expect(root.zod).toContain('the arguments must be an object');
    expect(root.json).toContain('the arguments must be an object');
  });

  it('gives back a copy with defaults filled in', async () => {
    const input = { text: 'milk' };
    const zod = await validateToolArgs(addTodo, input);
    const json = validateWithJsonSchema(declaration, input);
    expect(zod).toEqual({ ok: true, value: { text: 'milk', priority: 'low' } });
    expect(json).toEqual({ ok: true, value: { text: 'milk', priority: 'low' } });
    expect(input).toEqual({ text: 'milk' });
  });

  it('treats missing arguments as an empty object', async () => {
    const noArgs = defineTool({ name: 'now', description: 'The time.', parameters: z.object({}), execute: () => 1 });
    expect(await validateToolArgs(noArgs, undefined)).toEqual({ ok: true, value: {} });
    expect(validateWithJsonSchema(toDeclaration(noArgs), null)).toEqual({ ok: true, value: {} });
  });

  it('runs async refinements through validateToolArgs', async () => {
    const tool = defineTool({
      name: 'reserve',
      description: 'Reserve a name.',
      parameters: z.object({ name: z.string().refine(async (v) => v !== 'taken', 'That name is taken') }),
      execute: () => 'ok',
    });
    const taken = await validateToolArgs(tool, { name: 'taken' });
    expect(taken.ok).toBe(false);
    if (!taken.ok) expect(taken.error.message).toContain('"name" is invalid: That name is taken');
    expect(await validateToolArgs(tool, { name: 'free' })).toEqual({ ok: true, value: { name: 'free' } });
  });

  it("keeps an author's own zod message beside ours", async () => {
    const tool = defineTool({
      name: 'note',
      description: 'Write a note.',
      parameters: z.object({ text: z.string().min(1, 'Text cannot be empty') }),
      execute: () => 'ok',
    });
    const result = await validateToolArgs(tool, { text: '' });
    expect(!result.ok && result.error.message).toContain(
      '"text" must be at least 1 character long (Text cannot be empty)',
    );
  });

  it('phrases unions, literals, patterns, formats and unknown keys the same way', async () => {
    const tool = defineTool({
      name: 'shape',
      description: 'Shapes.',
      parameters: z
        .object({
          id: z.union([z.string(), z.number()]),
          kind: z.literal('box'),
          code: z.string().regex(/^[A-Z]{3}$/),
          mail: z.email(),
          tags: z.array(z.string()).max(2),
        })
        .strict(),
      execute: () => 'ok',
    });
    const args = { id: true, kind: 'ball', code: 'ab', mail: 'nope', tags: ['a', 'b', 'c'], extra: 1 };
    const zod = await validateToolArgs(tool, args);
    const json = validateWithJsonSchema(toDeclaration(tool), args);
    for (const result of [zod, json]) {
      expect(result.ok).toBe(false);
      const message = !result.ok ? result.error.message : '';
      expect(message).toContain('"id" must be a string or a number');
      expect(message).toContain('"kind" must be "box"');
      expect(message).toContain('"code" must match the pattern /^[A-Z]{3}$/');
      expect(message).toContain('"mail" must be a valid email address');
      expect(message).toContain('"tags" must have at most 2 items');
      expect(message).toContain('"extra" is not an allowed field');
    }
    expect(!zod.ok && zod.error.message).toBe(!json.ok && json.error.message);
  });
});

describe('formatIssues', () => {
  it('writes nested paths with indices and quotes odd keys', () => {
    expect(
      formatIssues('t', [
        { path: ['items', 2, 'qty'], message: 'must be at least 1' },
        { path: ['a b', 0], message: 'is required' },
        { path: [], message: 'must be an object' },
      ]),
    ).toBe('t: "items[2].qty" must be at least 1; "["a b"][0]" is required; the arguments must be an object');
  });
});
