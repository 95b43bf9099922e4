/**
 * Seven real MCP servers from npm, started over stdio with the MCP SDK's
 * client, and the tools they list, as the runtime declares them
 * (fromMCPTool). Servers that need a token get a dummy one; listing tools
 * makes no request, and nothing here calls a tool, so nothing reaches the network.
 */
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fromMCPTool, type MCPToolDefinition } from '../../../src/tools/mcp';
import { toDeclaration } from '../../../src/tools/to-declaration';
import type { ToolDeclaration } from '../../../src/tools/declaration';

const require = createRequire(import.meta.url);

export const MCP_SERVERS = [
  'everything',
  'filesystem',
  'memory',
  'github',
  'slack',
  'google-maps',
  'sequential-thinking',
] as const;
export type MCPServerName = (typeof MCP_SERVERS)[number];

function launch(server: MCPServerName, scratch: string): { args: string[]; env: Record<string, string> } {
  switch (server) {
    case 'everything':
      return { args: ['stdio'], env: {} };
    case 'filesystem':
      return { args: [scratch], env: {} };
    case 'memory':
      return { args: [], env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') } };
    case 'github':
      return { args: [], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'dummy-token-for-listing' } };
    case 'slack':
      return { args: [], env: { SLACK_BOT_TOKEN: 'xoxb-dummy', SLACK_TEAM_ID: 'T00000000' } };
    case 'google-maps':
      return { args: [], env: { GOOGLE_MAPS_API_KEY: 'dummy-key-for-listing' } };
    case 'sequential-thinking':
      return { args: [], env: {} };
  }
}

export interface ListedServer {
  server: MCPServerName;
  definitions: MCPToolDefinition[];
  declarations: ToolDeclaration[];
}

/** Starts every server at once, lists its tools, and stops it. */
export async function listMCPServers(): Promise<ListedServer[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'inpage-agent-mcp-'));
  return Promise.all(
    MCP_SERVERS.map(async (server) => {
      const { args, env } = launch(server, scratch);
      const script = require.resolve(`@modelcontextprotocol/server-${server}/dist/index.js`);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [script, ...args],
        env: { PATH: process.env.PATH ?? '', ...env },
        stderr: 'ignore',
      });
      const client = new Client({ name: 'inpage-agent-grammar-proof', version: '0.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        const definitions = tools as MCPToolDefinition[];
        const declarations = definitions.map((definition) => toDeclaration(fromMCPTool(definition, () => undefined)));
        return { server, definitions, declarations };
      } finally {
        await client.close();
      }
    }),
  );
}
