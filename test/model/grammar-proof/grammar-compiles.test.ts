/**
 * Grammars for real schemas (issue #12): every tool schema that zod 4 emits
 * for the shapes page tools commonly use, and every tool of seven real MCP
 * servers (listed live over stdio), compiles with web-xgrammar (the wasm
 * web-llm embeds) in every family's format, through the same plan the
 * runtime makes; a schema it cannot compile is relaxed up front, with a reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { planToolCalls } from '../../../src/model/formats/tool-call-plan';
import { TOOL_FORMATS } from '../../../src/model/formats/registry';
import type { ToolFormatName } from '../../../src/model/formats/tool-format';
import { Grammar } from './xgrammar';
import { listMCPServers, MCP_SERVERS, type ListedServer } from './mcp-servers';
import { zodShapeTools } from './zod-shapes';

const formats = Object.keys(TOOL_FORMATS) as ToolFormatName[];

/** Compiles the step's grammar; what web-llm would refuse, with the reason. */
async function compileProblems(format: ToolFormatName, tools: ToolDeclaration[]): Promise<string[]> {
  const plan = planToolCalls(format, tools);
  try {
    (await Grammar.fromStructuralTag(plan.responseFormat!.structural_tag as never)).dispose();
    return [];
  } catch (error) {
    return [`${tools.map((t) => t.name).join(', ')}: ${String(error)}`];
  }
}

describe('zod 4 shapes', () => {
  it('declare the shapes page tools use', () => {
    expect(zodShapeTools.map((t) => t.name)).toEqual([
      'enums',
      'optional_default_nullable',
      'unions',
      'records',
      'arrays_of_objects',
      'string_formats',
      'string_checks',
      'number_bounds',
      'nested_objects',
      'discriminated_unions',
      'tuples_and_sets',
      'recursive',
    ]);
  });

  it.each(formats)('compile in the %s grammar, each alone and all together', async (format) => {
    const problems: string[] = [];
    for (const tool of zodShapeTools) problems.push(...(await compileProblems(format, [tool])));
    problems.push(...(await compileProblems(format, zodShapeTools)));
    expect(problems).toEqual([]);
  });

  it.each(formats)('in the %s grammar only a lookaround pattern is relaxed, and the plan says why', (format) => {
    const plan = planToolCalls(format, zodShapeTools);
    expect(Object.fromEntries(plan.relaxed)).toEqual({
      string_checks: expect.stringContaining('lookaround'),
    });
  });
});

describe('seven real MCP servers', () => {
  let servers: ListedServer[];
  beforeAll(async () => {
    servers = await listMCPServers();
  }, 60_000);

  it('list their tools over stdio', () => {
    expect(servers.map((s) => s.server)).toEqual([...MCP_SERVERS]);
    for (const server of servers) expect(server.declarations.length, server.server).toBeGreaterThan(0);
    expect(servers.reduce((sum, s) => sum + s.declarations.length, 0)).toBeGreaterThanOrEqual(70);
  });

  it.each(formats)('every tool compiles in the %s grammar, each server as one step, none relaxed', async (format) => {
    const problems: string[] = [];
    const relaxed: string[] = [];
    for (const { declarations } of servers) {
      problems.push(...(await compileProblems(format, declarations)));
      relaxed.push(...planToolCalls(format, declarations).relaxed.keys());
    }
    expect(problems).toEqual([]);
    expect(relaxed).toEqual([]);
  });
});
