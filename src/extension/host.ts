/**
 * The extension-page side (an offscreen document or a side panel: a MV3
 * service worker cannot start the agent's Web Worker). It accepts the tool
 * ports of this extension's own content scripts, registers their tools on
 * the agent, and removes them when the tab goes away. Ports from other
 * extensions or from web pages are refused.
 */
import * as Comlink from 'comlink';
import { AgentError } from '../errors';
import { buildTool, type Tool, type ToolContext } from '../tools/define-tool';
import type { ToolDeclaration } from '../tools/declaration';
import { chromeRuntime, type ChromePort, type ChromeRuntime } from './chrome-types';
import { portEndpoint } from './port-endpoint';
import { TOOLS_PORT, type ContentToolsApi } from './bridge-protocol';

/** What the host needs of an agent: createAgent's result fits. */
export interface ToolRegistry {
  registerTool(tool: Tool): Promise<void>;
  unregisterTool(name: string): Promise<void>;
}

export interface AcceptOptions {
  /** Told of every refused port, with why. */
  onRefused?: (error: AgentError, port: ChromePort) => void;
  /** Told when a tab's tools arrive or leave. */
  onTools?: (change: { added?: string[]; removed?: string[]; tabId?: number }) => void;
  /** For tests: the runtime to listen on. */
  runtime?: ChromeRuntime;
}

export function acceptContentScriptTools(agent: ToolRegistry, options: AcceptOptions = {}): () => void {
  const runtime = options.runtime ?? chromeRuntime();
  const refuse = (port: ChromePort, why: string) => {
    options.onRefused?.(new AgentError('port-refused', why), port);
    port.disconnect();
  };
  const onConnect = (port: ChromePort) => {
    if (port.name !== TOOLS_PORT) return;
    // Only this extension's own content scripts may add tools; they come from a tab.
    if (port.sender?.id !== runtime.id) return refuse(port, `A port from "${port.sender?.id ?? 'unknown'}" was refused: only this extension's content scripts may register tools.`);
    if (port.sender?.tab?.id === undefined) return refuse(port, 'A port that does not come from a tab\'s content script was refused.');
    void register(agent, port, options);
  };
  const onConnectExternal = (port: ChromePort) => refuse(port, `A port from outside this extension (${port.sender?.url ?? port.sender?.id ?? 'unknown'}) was refused.`);
  runtime.onConnect.addListener(onConnect);
  runtime.onConnectExternal?.addListener(onConnectExternal);
  return () => {
    runtime.onConnect.removeListener(onConnect);
    runtime.onConnectExternal?.removeListener(onConnectExternal);
  };
}

async function register(agent: ToolRegistry, port: ChromePort, options: AcceptOptions): Promise<void> {
  const remote = Comlink.wrap<ContentToolsApi>(portEndpoint(port));
  const names: string[] = [];
  let gone = false;
  port.onDisconnect.addListener(() => {
    gone = true;
    for (const name of names) void agent.unregisterTool(name).catch(() => undefined);
    if (names.length) options.onTools?.({ removed: [...names], tabId: port.sender?.tab?.id });
  });
  const declarations = await remote.declarations();
  for (const declaration of declarations) {
    if (gone) return;
    await agent.registerTool(remoteTool(declaration, remote));
    names.push(declaration.name);
  }
  port.postMessage({ type: 'inpage-agent/ready' });
  options.onTools?.({ added: [...names], tabId: port.sender?.tab?.id });
}

/** A tool that runs in the content script: validated here from its JSON Schema, and there again with zod. */
function remoteTool(declaration: ToolDeclaration, remote: Comlink.Remote<ContentToolsApi>): Tool {
  return buildTool(
    {
      name: declaration.name,
      description: declaration.description,
      whenToUse: declaration.whenToUse,
      displayName: declaration.displayName,
      annotations: declaration.annotations,
      needsApproval: declaration.needsApproval === 'dynamic' ? true : declaration.needsApproval,
      returnDirect: declaration.returnDirect,
      timeoutMs: declaration.timeoutMs,
      execute: async (args: unknown, ctx: ToolContext) => {
        ctx.signal.addEventListener('abort', () => void remote.abortTool(ctx.callId), { once: true });
        const outcome = await remote.callTool({ callId: ctx.callId, name: declaration.name, args });
        if (!outcome.ok) throw new AgentError(outcome.error.code as never, outcome.error.message);
        return outcome.result;
      },
    },
    { kind: 'json-schema', jsonParameters: declaration.parameters },
    'content-script',
  );
}
