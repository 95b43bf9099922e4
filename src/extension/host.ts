/**
 * The extension-page side (an offscreen document or a side panel: a MV3
 * service worker cannot start the agent's Web Worker). It accepts the tool
 * ports of this extension's own content scripts, registers their tools on
 * the agent, and removes them when the tab goes away. Ports from other
 * extensions or from web pages are refused.
 *
 * Several tabs usually offer the same tools (one content script, many
 * pages). The agent sees each name once, and a call goes to the tab that
 * offered it last (the page the user opened most recently); when that tab
 * closes or navigates away, the name falls back to the previous tab that
 * still offers it, and leaves the agent with the last one.
 */
import * as Comlink from 'comlink';
import { AgentError, messageOf } from '../errors';
import { buildTool, type Tool, type ToolContext } from '../tools/define-tool';
import type { ToolDeclaration } from '../tools/declaration';
import { chromeRuntime, type ChromePort, type ChromeRuntime } from './chrome-types';
import { portEndpoint } from './port-endpoint';
import { READY_MESSAGE, TOOLS_PORT, type ContentToolsApi } from './bridge-protocol';

/** What the host needs of an agent: createAgent's result fits. */
export interface ToolRegistry {
  registerTool(tool: Tool): Promise<void>;
  unregisterTool(name: string): Promise<void>;
}

export interface AcceptOptions {
  /** Told of every refused port (code `port-refused`) and of every tool the agent would not take, with why. */
  onRefused?: (error: AgentError, port: ChromePort) => void;
  /** Told when a tab's tools arrive or leave. */
  onTools?: (change: { added?: string[]; removed?: string[]; tabId?: number }) => void;
  /** The runtime to listen on (default: chrome.runtime). */
  runtime?: ChromeRuntime;
}

/** One tab's offer of one tool. */
interface Offer {
  port: ChromePort;
  declaration: ToolDeclaration;
  remote: Comlink.Remote<ContentToolsApi>;
  /** Rejects when the tab's port closes, so a call in flight ends instead of waiting forever. */
  closed: Promise<never>;
}

/** Starts accepting; the returned function stops listening (tools already registered stay until their tabs go). */
export function acceptContentScriptTools(agent: ToolRegistry, options: AcceptOptions = {}): () => void {
  const runtime = options.runtime ?? chromeRuntime();
  /** Per tool name, the tabs offering it, the current one last. */
  const offers = new Map<string, Offer[]>();
  /** The declaration the agent holds now, per name, to know when a new owner needs a new registration. */
  const registered = new Map<string, string>();
  // Registrations and removals run one at a time, so two tabs arriving together cannot race on a name.
  let queue = Promise.resolve();
  const serially = (step: () => Promise<void>) => (queue = queue.then(step, step));

  const refuse = (port: ChromePort, why: string) => {
    options.onRefused?.(new AgentError('port-refused', why), port);
    port.disconnect();
  };

  /** Makes the agent's tool `name` forward to its current owner (or removes it when no tab offers it). */
  const settle = async (name: string, port: ChromePort) => {
    const owner = offers.get(name)?.at(-1);
    const wanted = owner ? JSON.stringify(owner.declaration) : undefined;
    const held = registered.get(name);
    if (held === wanted) return;
    if (held !== undefined) {
      registered.delete(name);
      await agent.unregisterTool(name).catch(() => undefined);
    }
    if (!owner) return;
    try {
      await agent.registerTool(remoteTool(owner.declaration, () => offers.get(name)?.at(-1)));
      registered.set(name, wanted!);
    } catch (error) {
      offers.set(
        name,
        offers.get(name)!.filter((offer) => offer !== owner),
      );
      options.onRefused?.(
        new AgentError(
          'invalid-tool',
          `The tool "${name}" from tab ${port.sender?.tab?.id ?? '?'} was not registered: ${messageOf(error)}`,
          { cause: error },
        ),
        port,
      );
    }
  };

  const accept = (port: ChromePort) => {
    const remote = Comlink.wrap<ContentToolsApi>(portEndpoint(port));
    const tabId = port.sender?.tab?.id;
    const names: string[] = [];
    let gone = false;
    const closed = new Promise<never>((_, reject) =>
      port.onDisconnect.addListener(() =>
        reject(new AgentError('tool-failed', `Tab ${tabId ?? '?'} closed or navigated away during the call.`)),
      ),
    );
    closed.catch(() => undefined);
    port.onDisconnect.addListener(() => {
      gone = true;
      void serially(async () => {
        for (const name of names) {
          offers.set(
            name,
            (offers.get(name) ?? []).filter((offer) => offer.port !== port),
          );
          if (!offers.get(name)!.length) offers.delete(name);
          await settle(name, port);
        }
        if (names.length) options.onTools?.({ removed: [...names], tabId });
      });
    });
    void serially(async () => {
      let declarations: ToolDeclaration[];
      try {
        declarations = await remote.declarations();
      } catch {
        return; // The tab went away before it said what it offers.
      }
      if (gone) return;
      for (const declaration of declarations) {
        offers.set(declaration.name, [...(offers.get(declaration.name) ?? []), { port, declaration, remote, closed }]);
        await settle(declaration.name, port);
        if (offers.get(declaration.name)?.some((offer) => offer.port === port)) names.push(declaration.name);
      }
      port.postMessage(READY_MESSAGE);
      options.onTools?.({ added: [...names], tabId });
    });
  };

  const onConnect = (port: ChromePort) => {
    if (port.name !== TOOLS_PORT) return;
    // Only this extension's own content scripts may add tools; they come from a tab.
    if (port.sender?.id !== runtime.id)
      return refuse(
        port,
        `A port from "${port.sender?.id ?? 'unknown'}" was refused: only this extension's content scripts may register tools.`,
      );
    if (port.sender?.tab?.id === undefined)
      return refuse(port, "A port that does not come from a tab's content script was refused.");
    accept(port);
  };
  const onConnectExternal = (port: ChromePort) =>
    refuse(
      port,
      `A port from outside this extension (${port.sender?.url ?? port.sender?.id ?? 'unknown'}) was refused.`,
    );
  runtime.onConnect.addListener(onConnect);
  runtime.onConnectExternal?.addListener(onConnectExternal);
  return () => {
    runtime.onConnect.removeListener(onConnect);
    runtime.onConnectExternal?.removeListener(onConnectExternal);
  };
}

/**
 * A tool that runs in a content script: validated here from its JSON Schema,
 * and there again with zod. `owner` is asked at call time, so a call goes to
 * whichever tab offers the tool then.
 */
function remoteTool(declaration: ToolDeclaration, owner: () => Offer | undefined): Tool {
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
        const offer = owner();
        if (!offer) throw new AgentError('tool-failed', `No open tab offers "${declaration.name}" any more.`);
        ctx.signal.addEventListener('abort', () => void offer.remote.abortTool(ctx.callId).catch(() => undefined), {
          once: true,
        });
        const outcome = await Promise.race([
          offer.remote.callTool({ callId: ctx.callId, name: declaration.name, args }),
          offer.closed,
        ]);
        if (!outcome.ok) throw new AgentError(outcome.error.code, outcome.error.message);
        return outcome.result;
      },
    },
    { kind: 'json-schema', jsonParameters: declaration.parameters },
    'content-script',
    'the extension bridge',
  );
}
