import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../../src/tools/declaration';
import { assertUniqueToolNames, defineTool } from '../../src/tools/define-tool';
import { toDeclaration } from '../../src/tools/to-declaration';
import { z } from '../../src/tools/zod';

const base = {
  name: 'add_todo',
  description: 'Add an item to the todo list on this page.',
  parameters: z.object({ text: z.string().min(1), due: z.string().optional() }),
  execute: async (args: { text: string }) => ({ id: args.text }),
};

function errorOf(fn: () => unknown): AgentError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('expected a throw');
}

describe('defineTool', () => {
  it('keeps the zod schema and execute, and fills defaults', () => {
    const tool = defineTool(base);
    expect(tool.schema.kind).toBe('zod');
    expect(tool.execute).toBe(base.execute);
    expect(tool.timeoutMs).toBe(DEFAULT_TOOL_TIMEOUT_MS);
    expect(tool.returnDirect).toBe(false);
    expect(tool.source).toBe('page');
    expect(Object.isFrozen(tool)).toBe(true);
  });

  it.each([
    ['add todo', 'name'],
    ['1st', 'name'],
    ['x'.repeat(65), 'name'],
    ['', 'name'],
  ])('rejects the name %j naming the tool and the field', (name, field) => {
    const error = errorOf(() => defineTool({ ...base, name }));
    expect(error.code).toBe('invalid-tool');
    expect(error.message).toContain(`"${name}"`);
    expect(error.details).toMatchObject({ field });
  });

  it('accepts names up to 64 characters with _ and -', () => {
    expect(defineTool({ ...base, name: `_a-${'b'.repeat(61)}` }).name).toHaveLength(64);
  });

  it('rejects an empty description', () => {
    const error = errorOf(() => defineTool({ ...base, description: '   ' }));
    expect(error.code).toBe('invalid-tool');
    expect(error.message).toMatch(/add_todo.*description/);
  });

  it('rejects parameters that are not a zod object', () => {
    const error = errorOf(() => defineTool({ ...base, parameters: z.string() as never }));
    expect(error.message).toMatch(/add_todo.*parameters.*zod object.*zod string schema/);
    const plain = errorOf(() => defineTool({ ...base, parameters: { text: 'string' } as never }));
    expect(plain.message).toContain('"parameters"');
  });

  it('rejects parameters JSON Schema cannot describe, saying what to use instead', () => {
    const error = errorOf(() => defineTool({ ...base, parameters: z.object({ when: z.date() }), execute: () => 1 }));
    expect(error.message).toMatch(/add_todo.*parameters.*z\.iso\.datetime\(\)/);
  });

  it.each([0, -5, Number.NaN, Infinity, 2 ** 31, '10'])('rejects timeoutMs %s', (timeoutMs) => {
    const error = errorOf(() => defineTool({ ...base, timeoutMs: timeoutMs as number }));
    expect(error.code).toBe('invalid-tool');
    expect(error.message).toMatch(/add_todo.*timeoutMs/);
  });

  it('rejects a missing execute and a bad needsApproval', () => {
    expect(errorOf(() => defineTool({ ...base, execute: undefined as never })).message).toMatch(/"execute"/);
    expect(errorOf(() => defineTool({ ...base, needsApproval: 'yes' as never })).message).toMatch(/"needsApproval"/);
    expect(errorOf(() => defineTool({ ...base, annotations: { destructive: 'no' as never } })).message).toMatch(
      /annotations\.destructive/,
    );
  });

  it("finds a duplicate name among one agent's tools", () => {
    const a = defineTool(base);
    const b = defineTool({ ...base, description: 'another' });
    expect(() => assertUniqueToolNames([a])).not.toThrow();
    const error = errorOf(() => assertUniqueToolNames([a, defineTool({ ...base, name: 'other' }), b]));
    expect(error.code).toBe('invalid-tool');
    expect(error.message).toContain('"add_todo"');
  });
});

describe('toDeclaration', () => {
  it('is structured-clone safe and carries the JSON Schema of the arguments', () => {
    const tool = defineTool({
      ...base,
      whenToUse: 'When the user asks to remember a task.',
      displayName: 'Add to-do',
      returns: z.object({ id: z.string() }),
      parameters: z.object({ text: z.string().min(1), priority: z.enum(['low', 'high']).default('low') }),
    });
    const declaration = toDeclaration(tool);
    expect(structuredClone(declaration)).toEqual(declaration);
    expect(declaration).toMatchObject({
      name: 'add_todo',
      whenToUse: 'When the user asks to remember a task.',
      displayName: 'Add to-do',
      needsApproval: false,
      returnDirect: false,
      longRunning: false,
      timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
      source: 'page',
    });
    expect(declaration.parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', minLength: 1 }, priority: { enum: ['low', 'high'], default: 'low' } },
      required: ['text'],
    });
    expect(declaration.parameters.$schema).toBeUndefined();
    expect(declaration.returns).toMatchObject({ type: 'object', properties: { id: { type: 'string' } } });
  });

  it('turns needsApproval into true, false or dynamic; destructive tools ask unless told not to', () => {
    expect(toDeclaration(defineTool({ ...base, needsApproval: true })).needsApproval).toBe(true);
    expect(toDeclaration(defineTool({ ...base, needsApproval: (args) => args.text === 'x' })).needsApproval).toBe(
      'dynamic',
    );
    expect(toDeclaration(defineTool({ ...base, annotations: { destructive: true } })).needsApproval).toBe(true);
    expect(
      toDeclaration(defineTool({ ...base, annotations: { destructive: true }, needsApproval: false })).needsApproval,
    ).toBe(false);
  });

  it('gives the worker its own copy of the schema', () => {
    const tool = defineTool(base);
    const declaration = toDeclaration(tool);
    (declaration.parameters.properties as Record<string, unknown>).text = 'changed';
    expect(toDeclaration(tool).parameters.properties).toMatchObject({ text: { type: 'string' } });
  });
});
