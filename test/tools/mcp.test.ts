import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors';
import { defineTool } from '../../src/tools/define-tool';
import { invokeTool } from '../../src/tools/invoke-tool';
import { fromMCPTool, toMCPTool, type MCPToolDefinition } from '../../src/tools/mcp';
import { toDeclaration } from '../../src/tools/to-declaration';
import { validateWithJsonSchema } from '../../src/tools/validate-args';
import { z } from '../../src/tools/zod';

// Tool listings in the shape MCP servers answer tools/list with (after the
// spec's examples and common servers: pydantic-generated schemas with titles,
// Optional fields as anyOf with null, enums, defaults, bounds, patterns).
const getWeather: MCPToolDefinition = {
  name: 'get_weather',
  title: 'Weather Information Provider',
  description: 'Get current weather information for a location',
  inputSchema: {
    type: 'object',
    properties: { location: { type: 'string', description: 'City name or zip code' } },
    required: ['location'],
  },
  outputSchema: {
    type: 'object',
    properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
    required: ['temperature', 'conditions'],
  },
};

const fetchPage: MCPToolDefinition = {
  name: 'fetch',
  description: 'Fetches a URL from the internet and extracts its contents as markdown.',
  inputSchema: {
    type: 'object',
    title: 'Fetch',
    description: 'Parameters for fetching a URL.',
    properties: {
      url: { type: 'string', format: 'uri', minLength: 1, title: 'Url', description: 'URL to fetch' },
      max_length: {
        type: 'integer',
        default: 5000,
        exclusiveMinimum: 0,
        exclusiveMaximum: 1000000,
        title: 'Max Length',
      },
      start_index: { type: 'integer', default: 0, minimum: 0, title: 'Start Index' },
      raw: { type: 'boolean', default: false, title: 'Raw' },
    },
    required: ['url'],
  },
  annotations: { title: 'Fetch', readOnlyHint: true, openWorldHint: true },
};

const createIssue: MCPToolDefinition = {
  name: 'create_issue',
  description: 'Create a new issue in a repository',
  inputSchema: {
    type: 'object',
    properties: {
      owner: { type: 'string', pattern: '^[A-Za-z0-9-]+$' },
      repo: { type: 'string' },
      title: { type: 'string', minLength: 1, maxLength: 256 },
      body: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Body' },
      labels: { type: 'array', items: { type: 'string' }, uniqueItems: true, default: [] },
      priority: { type: 'string', enum: ['low', 'medium', 'high'], default: 'medium' },
      milestone: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
      due: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      assignee: {
        type: 'object',
        properties: { login: { type: 'string' }, notify: { type: 'boolean', default: true } },
        required: ['login'],
        additionalProperties: false,
      },
    },
    required: ['owner', 'repo', 'title'],
    additionalProperties: false,
    $schema: 'http://json-schema.org/draft-07/schema#',
  },
};

const editFile: MCPToolDefinition = {
  name: 'edit_file',
  description: 'Make line-based edits to a text file.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      edits: { type: 'array', items: { $ref: '#/definitions/Edit' }, minItems: 1 },
      dryRun: { type: 'boolean', default: false },
    },
    required: ['path', 'edits'],
    definitions: {
      Edit: {
        type: 'object',
        properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
        required: ['oldText', 'newText'],
      },
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

const noop = () => 'ok';

describe('fromMCPTool', () => {
  it('validates from the inputSchema on both sides and fills defaults', async () => {
    const tool = fromMCPTool(fetchPage, (args) => args);
    const ok = await invokeTool(tool, { url: 'https://example.com' });
    expect(ok.ok && ok.result.content).toEqual({
      url: 'https://example.com',
      max_length: 5000,
      start_index: 0,
      raw: false,
    });

    let ran = false;
    const bad = await invokeTool(
      fromMCPTool(fetchPage, () => (ran = true)),
      { url: 'not a url', max_length: 0, start_index: -1 },
    );
    expect(ran).toBe(false);
    expect(!bad.ok && bad.error.code).toBe('invalid-arguments');
    expect(!bad.ok && bad.error.message).toBe(
      'fetch: "url" must be a valid absolute URI, e.g. https://example.com/page; "max_length" must be greater than 0; "start_index" must be at least 0. Fix the arguments and call fetch again.',
    );
    const inWorker = validateWithJsonSchema(toDeclaration(tool), { url: 'not a url', max_length: 0, start_index: -1 });
    expect(!inWorker.ok && inWorker.error.message).toBe(!bad.ok && bad.error.message);
  });

  it('handles nested objects, arrays, enums, patterns and Optional fields written as anyOf', () => {
    const declaration = toDeclaration(fromMCPTool(createIssue, noop));
    const good = validateWithJsonSchema(declaration, {
      owner: 'octo-org',
      repo: 'app',
      title: 'Bug',
      milestone: null,
      assignee: { login: 'amy' },
    });
    expect(good).toEqual({
      ok: true,
      value: {
        owner: 'octo-org',
        repo: 'app',
        title: 'Bug',
        milestone: null,
        assignee: { login: 'amy', notify: true },
        body: null,
        labels: [],
        priority: 'medium',
      },
    });
    const bad = validateWithJsonSchema(declaration, {
      owner: 'octo org',
      title: '',
      body: 3,
      labels: ['a', 'a'],
      priority: 'urgent',
      milestone: 0,
      due: '31/01/2025',
      assignee: { notify: 'yes', role: 'x' },
      extra: true,
    });
    expect(bad.ok).toBe(false);
    const message = !bad.ok ? bad.error.message : '';
    for (const part of [
      '"repo" is required',
      '"owner" must match the pattern /^[A-Za-z0-9-]+$/',
      '"title" must be at least 1 character long',
      '"body" must be a string or null',
      '"labels" must not contain duplicate items',
      '"priority" must be one of "low", "medium", "high"',
      '"milestone" must be at least 1',
      '"due" must match the pattern',
      '"assignee.login" is required',
      '"assignee.notify" must be a boolean',
      '"assignee.role" is not an allowed field',
      '"extra" is not an allowed field',
    ]) {
      expect(message).toContain(part);
    }
  });

  it('follows $ref into definitions for array items', () => {
    const declaration = toDeclaration(fromMCPTool(editFile, noop));
    expect(validateWithJsonSchema(declaration, { path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }] }).ok).toBe(
      true,
    );
    const bad = validateWithJsonSchema(declaration, { path: 'a.txt', edits: [{ oldText: 'a' }] });
    expect(!bad.ok && bad.error.message).toContain('"edits[0].newText" is required');
  });

  it('applies MCP defaults: without annotations a tool is destructive and open-world, so it asks', () => {
    const tool = fromMCPTool(getWeather, noop);
    expect(tool.annotations).toEqual({ readOnly: false, destructive: true, idempotent: false, openWorld: true });
    const declaration = toDeclaration(tool);
    expect(declaration.needsApproval).toBe(true);
    expect(declaration.source).toBe('mcp');
    expect(declaration.displayName).toBe('Weather Information Provider');
    expect(declaration.returns).toEqual(getWeather.outputSchema);
    // A read-only tool is never destructive and does not ask.
    expect(toDeclaration(fromMCPTool(fetchPage, noop)).needsApproval).toBe(false);
    // The page may decide otherwise.
    expect(toDeclaration(fromMCPTool(getWeather, noop, { needsApproval: false })).needsApproval).toBe(false);
  });

  it('rejects definitions it cannot use, saying what to do', () => {
    const dotted = (() => {
      try {
        fromMCPTool({ ...getWeather, name: 'weather.get' }, noop);
      } catch (error) {
        return error as AgentError;
      }
    })();
    expect(dotted?.code).toBe('invalid-tool');
    expect(dotted?.message).toContain('{ name: "weather_get" }');
    expect(fromMCPTool({ ...getWeather, name: 'weather.get' }, noop, { name: 'weather_get' }).name).toBe('weather_get');
    expect(() => fromMCPTool({ ...getWeather, inputSchema: { type: 'string' } }, noop)).toThrow(
      /inputSchema.*"type": "object"/,
    );
    expect(() =>
      fromMCPTool(
        { ...getWeather, inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/nope' } } } },
        noop,
      ),
    ).toThrow(/\$ref "#\/\$defs\/nope" points nowhere/);
    expect(() => fromMCPTool({ ...getWeather, description: undefined, title: undefined }, noop)).toThrow(/description/);
  });
});

describe('toMCPTool', () => {
  it('round-trips an MCP definition with its annotations', () => {
    for (const definition of [fetchPage, editFile]) {
      const back = toMCPTool(fromMCPTool(definition, noop));
      expect(back.name).toBe(definition.name);
      expect(back.description).toBe(definition.description);
      expect(back.inputSchema).toEqual(definition.inputSchema);
      const { title: _t, ...hints } = definition.annotations!;
      expect(back.annotations).toMatchObject(hints);
      // And once more: stable.
      expect(toMCPTool(fromMCPTool(back, noop))).toEqual(back);
    }
  });

  it('exports a page tool with every hint written out and the title from displayName', () => {
    const tool = defineTool({
      name: 'clear_list',
      description: 'Remove every item from the list.',
      displayName: 'Clear the list',
      parameters: z.object({ confirm: z.boolean() }),
      returns: z.object({ removed: z.number() }),
      annotations: { destructive: true, idempotent: true },
      execute: () => ({ removed: 3 }),
    });
    const exported = toMCPTool(tool);
    expect(exported).toMatchObject({
      name: 'clear_list',
      title: 'Clear the list',
      inputSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      outputSchema: { type: 'object', properties: { removed: { type: 'number' } } },
      annotations: {
        title: 'Clear the list',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    });
    expect(structuredClone(exported)).toEqual(exported);
    const back = fromMCPTool(exported, noop);
    expect(back.annotations).toEqual({ readOnly: false, destructive: true, idempotent: true, openWorld: false });
    // A page tool without annotations stays non-destructive on the other side.
    const plain = toMCPTool(
      defineTool({ name: 'peek', description: 'Look.', parameters: z.object({}), execute: noop }),
    );
    expect(plain.annotations?.destructiveHint).toBe(false);
    expect(toDeclaration(fromMCPTool(plain, noop)).needsApproval).toBe(false);
  });
});
