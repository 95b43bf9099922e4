/**
 * The zod 4 shapes page tools commonly use, one tool each, declared as the
 * runtime declares them (defineTool, then z.toJSONSchema inside toDeclaration).
 */
import { z } from '../../../src/tools/zod';
import { defineTool } from '../../../src/tools/define-tool';
import { toDeclaration } from '../../../src/tools/to-declaration';
import type { ToolDeclaration } from '../../../src/tools/declaration';

const shapes: Record<string, z.ZodObject> = {
  enums: z.object({ status: z.enum(['open', 'closed', 'archived']), level: z.literal(3) }),
  optional_default_nullable: z.object({
    title: z.string(),
    note: z.string().optional(),
    count: z.number().int().default(1),
    parent: z.string().nullable(),
    archived: z.boolean().nullish(),
  }),
  unions: z.object({ value: z.union([z.string(), z.number(), z.boolean()]), id: z.string().or(z.number().int()) }),
  records: z.object({ labels: z.record(z.string(), z.string()), scores: z.record(z.string(), z.number()) }),
  arrays_of_objects: z.object({
    items: z
      .array(z.object({ sku: z.string(), qty: z.number().int().positive(), tags: z.array(z.string()).optional() }))
      .min(1)
      .max(20),
  }),
  string_formats: z.object({
    email: z.email(),
    url: z.url(),
    uuid: z.uuid(),
    when: z.iso.datetime(),
    day: z.iso.date(),
    time: z.iso.time(),
    ip: z.ipv4(),
  }),
  string_checks: z.object({
    name: z.string().min(1).max(100),
    code: z.string().regex(/^[A-Z]{3}-\d{4}$/),
    site: z.string().startsWith('https://'),
    file: z.string().endsWith('.pdf'),
    query: z.string().includes('@'),
    password: z.string().regex(/^(?=.*\d)(?=.*[a-z]).{8,}$/),
  }),
  number_bounds: z.object({
    percent: z.number().min(0).max(100),
    rating: z.number().int().min(1).max(5),
    price: z.number().positive(),
    step: z.number().multipleOf(0.5),
    offset: z.number().int().nonnegative(),
  }),
  nested_objects: z.object({
    address: z.object({ street: z.string(), city: z.string(), geo: z.object({ lat: z.number(), lng: z.number() }) }),
  }),
  discriminated_unions: z.object({
    shape: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('circle'), radius: z.number() }),
      z.object({ kind: z.literal('rect'), width: z.number(), height: z.number() }),
    ]),
  }),
  tuples_and_sets: z.object({ point: z.tuple([z.number(), z.number()]), tags: z.array(z.string()).max(5) }),
  recursive: z.object({
    get tree(): z.ZodType {
      return z.object({ label: z.string(), children: z.array(z.lazy(() => shapes.recursive.shape.tree)) });
    },
  }),
};

export const zodShapeTools: ToolDeclaration[] = Object.entries(shapes).map(([name, parameters]) =>
  toDeclaration(
    defineTool({
      name,
      description: `A tool whose arguments are ${name.replaceAll('_', ' ')}.`,
      parameters,
      execute: () => null,
    }),
  ),
);
