/** `count` page tools of one plain shape (a string, a bounded integer, an enum): what the protocol benches measure. */
import type { ToolDeclaration } from '../src/tools/declaration';

export function benchTools(count: number): ToolDeclaration[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: `Does thing number ${i} on this page.`,
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' }, count: { type: 'integer', minimum: 0 }, mode: { enum: ['a', 'b', 'c'] } },
      required: ['text'],
      additionalProperties: false,
    },
    annotations: {},
    needsApproval: false,
    returnDirect: false,
    longRunning: false,
    timeoutMs: 30_000,
    source: 'page',
  }));
}
