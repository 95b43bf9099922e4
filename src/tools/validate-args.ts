/**
 * Argument validation on both sides of the worker boundary, with one error
 * shape: AgentError('invalid-arguments') whose message lists every failing
 * path in the words of format-issues.ts, so the model can correct its call.
 *
 * Both copy the arguments first (plain-copy.ts): `__proto__`, `constructor`
 * and `prototype` keys are dropped before any schema or tool code sees them.
 * A call with no arguments at all (undefined or null) counts as `{}`: small
 * models often write that for tools without parameters.
 */
import { AgentError } from '../errors';
import type { ToolDeclaration } from './declaration';
import type { Tool } from './define-tool';
import { formatIssues, issuesFromZod, type ValidationIssue } from './format-issues';
import { validateJsonSchema } from './json-schema-validate';
import { copyPlainData } from './plain-copy';
import { z } from './zod';

export type ArgsValidation<T = unknown> = { ok: true; value: T } | { ok: false; error: AgentError };

/** Worker side: the declaration's JSON Schema, before any page code runs. */
export function validateWithJsonSchema(
  declaration: Pick<ToolDeclaration, 'name' | 'parameters'>,
  args: unknown,
): ArgsValidation {
  const result = validateJsonSchema(declaration.parameters, args === undefined || args === null ? {} : args);
  return result.ok ? { ok: true, value: result.value } : invalid(declaration.name, result.issues);
}

/** Whatever the tool's schema kind; zod's async refinements and transforms run too. */
export async function validateToolArgs<Args>(tool: Tool<Args>, args: unknown): Promise<ArgsValidation<Args>> {
  if (tool.schema.kind !== 'zod')
    return validateWithJsonSchema(
      { name: tool.name, parameters: tool.schema.jsonParameters },
      args,
    ) as ArgsValidation<Args>;
  const input = prepare(args);
  const parsed = await z.safeParseAsync(tool.schema.parameters, input);
  if (parsed.success) return { ok: true, value: parsed.data as Args };
  return invalid(tool.name, issuesFromZod(parsed.error.issues, input));
}

function prepare(args: unknown): unknown {
  return args === undefined || args === null ? {} : copyPlainData(args);
}

function invalid(toolName: string, issues: ValidationIssue[]): { ok: false; error: AgentError } {
  const listed = formatIssues(toolName, issues);
  return {
    ok: false,
    error: new AgentError('invalid-arguments', `${listed}. Fix the arguments and call ${toolName} again.`, {
      details: { tool: toolName, issues },
    }),
  };
}
