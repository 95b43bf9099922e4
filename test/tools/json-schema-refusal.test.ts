import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors';
import type { JsonSchema } from '../../src/tools/declaration';
import { validateJsonSchema } from '../../src/tools/json-schema-validate';
import { fromMCPTool } from '../../src/tools/mcp';
import { invokeTool } from '../../src/tools/invoke-tool';

/**
 * A tool whose schema holds a keyword the validator cannot judge is refused
 * when it is made, instead of letting a guess decide which arguments reach
 * it. (importWebMCPTools, which makes its tools with fromMCPTool, is tested
 * with Chromium's real WebMCP registry in test/e2e/webmcp.test.ts.)
 */
function makeTool(properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return fromMCPTool(
    {
      name: 'save_tree',
      description: 'Saves a tree of notes.',
      inputSchema: { type: 'object', properties, ...extra } as JsonSchema,
    },
    (args) => args,
  );
}

function refusal(properties: Record<string, unknown>, extra: Record<string, unknown> = {}): AgentError {
  try {
    makeTool(properties, extra);
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('the tool was made');
}

describe('fromMCPTool refuses a schema the validator cannot judge, naming the tool and the keyword', () => {
  it.each([
    [
      "draft 2019-09's $recursiveRef",
      { children: { type: 'array', items: { $recursiveRef: '#' } } },
      'properties.children.items.$recursiveRef is not judged by this validator: it is draft 2019-09\'s recursive reference; write "$dynamicRef" (draft 2020-12) or "$ref" instead',
    ],
    [
      "draft-03's extends",
      { note: { extends: { $ref: '#/$defs/base' } } },
      'properties.note.extends is not judged by this validator',
    ],
    [
      "draft-03's required: true on a property",
      { title: { type: 'string', required: true } },
      'properties.title.required is true, draft-03\'s form, which this validator does not judge: list required fields in the "required" array',
    ],
    [
      'a bound it cannot read',
      { title: { type: 'string', minLength: '3' } },
      'properties.title.minLength must be a whole number, 0 or more; got "3"',
    ],
    [
      'a $ref to a document outside the schema',
      { tree: { $ref: 'https://example.com/tree.json' } },
      'properties.tree.$ref "https://example.com/tree.json" points nowhere',
    ],
    [
      'a $dynamicRef that points nowhere',
      { tree: { $dynamicRef: '#/$defs/missing' } },
      'properties.tree.$dynamicRef "#/$defs/missing" points nowhere',
    ],
  ])('%s', (_, properties, expected) => {
    const error = refusal(properties);
    expect(error.code).toBe('invalid-tool');
    expect(error.message).toMatch(/^MCP tool "save_tree": "inputSchema" has problems: /);
    expect(error.message).toContain(expected);
  });

  it('(why) the validator alone would let anything through such a keyword', () => {
    const schema = { type: 'object', properties: { children: { type: 'array', items: { $recursiveRef: '#' } } } };
    expect(validateJsonSchema(schema, { children: ['not a tree', 42] }).ok).toBe(true);
    expect(validateJsonSchema({ properties: { title: { required: true } } }, {}).ok).toBe(true);
  });

  it('does not refuse annotations, format names it does not assert, or keywords no dialect knows', async () => {
    const tool = makeTool(
      {
        host: { type: 'string', format: 'hostname', title: 'Host', description: 'Where', examples: ['a.example'] },
        notes: { type: 'string', contentMediaType: 'text/markdown', deprecated: true, readOnly: false },
        color: { type: 'string', markdownDescription: '**Red** or blue', enumDescriptions: ['r', 'b'] },
      },
      { $comment: 'generated', 'x-mcp-annotations': { readOnlyHint: true }, discriminator: { propertyName: 'kind' } },
    );
    const outcome = await invokeTool(tool, { host: 'not a host name!', notes: '# hi', color: 'red' });
    expect(outcome.ok && outcome.result.content).toEqual({ host: 'not a host name!', notes: '# hi', color: 'red' });
  });
});
