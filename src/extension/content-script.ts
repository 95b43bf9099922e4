/**
 * The content-script side: a page's tools, defined in the content script
 * (they can read and change the visited page), offered to the extension's
 * agent over a runtime port. The extension page may not be up yet when the
 * content script starts, and may reload later (the offscreen document is
 * closed and made again), so connecting retries, and starts over whenever
 * the host goes away.
 */
import * as Comlink from 'comlink';
import type { Tool } from '../tools/define-tool';
import { toDeclaration } from '../tools/to-declaration';
import { invokeTool } from '../tools/invoke-tool';
import { asTool, assertUniqueToolNames } from '../tools/define-tool';
import { chromeRuntime, type ChromePort } from './chrome-types';
import { portEndpoint } from './port-endpoint';
import { READY_MESSAGE, TOOLS_PORT, type ContentToolsApi } from './bridge-protocol';
import { AgentError, messageOf } from '../errors';

export type PageToolsStatus = 'connecting' | 'connected' | 'gave-up' | 'closed';

export interface ExposeOptions {
  /** How many times in a row to try to reach the extension page, and how long to wait between tries. */
  retries?: number;
  retryMs?: number;
  /** Told of every change of `status`. */
  onStatus?: (status: PageToolsStatus, error?: AgentError) => void;
}

export interface PageToolsConnection {
  /** Resolves once the extension's host has the tools the first time; rejects if it never answered. */
  ready: Promise<void>;
  /**
   * `connected` while the host has the tools. When the host page goes away
   * (the offscreen document closed or reloaded) it is `connecting` again until
   * the new one has them, or `gave-up` after `retries` tries in a row.
   */
  readonly status: PageToolsStatus;
  disconnect(): void;
}

export function exposePageTools(given: Tool[], options: ExposeOptions = {}): PageToolsConnection {
  const tools = given.map((tool) => asTool(tool, 'exposePageTools'));
  assertUniqueToolNames(tools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const running = new Map<string, AbortController>();
  const api: ContentToolsApi = {
    declarations: () => tools.map(toDeclaration),
    async callTool({ callId, name, args }) {
      const tool = byName.get(name);
      if (!tool)
        return { ok: false, ms: 0, error: { code: 'unknown-tool', message: `This page has no tool "${name}".` } };
      const controller = new AbortController();
      running.set(callId, controller);
      try {
        return await invokeTool(tool, args, { signal: controller.signal, context: { callId } });
      } finally {
        running.delete(callId);
      }
    },
    abortTool: (callId) => running.get(callId)?.abort(),
  };

  const retries = options.retries ?? 20;
  let status: PageToolsStatus = 'connecting';
  let port: ChromePort | undefined;
  let triesLeft = retries;
  let settleReady: { resolve(): void; reject(error: AgentError): void } | undefined;
  const ready = new Promise<void>((resolve, reject) => (settleReady = { resolve, reject }));
  ready.catch(() => undefined);
  const setStatus = (next: PageToolsStatus, error?: AgentError) => {
    if (status === next) return;
    status = next;
    options.onStatus?.(next, error);
  };
  const giveUp = (error: AgentError) => {
    setStatus('gave-up', error);
    settleReady?.reject(error);
  };

  const connect = () => {
    if (status === 'closed') return;
    let current: ChromePort;
    try {
      current = chromeRuntime().connect({ name: TOOLS_PORT });
    } catch (error) {
      // The extension was reloaded or removed: this content script can never reach it again.
      return giveUp(
        new AgentError('port-refused', `The content script lost its extension (${messageOf(error)}); reload the page.`),
      );
    }
    port = current;
    Comlink.expose(api, portEndpoint(current), ['*']);
    current.onMessage.addListener((message) => {
      if ((message as { type?: string } | null)?.type !== READY_MESSAGE.type) return;
      triesLeft = retries;
      setStatus('connected');
      settleReady?.resolve();
    });
    // No host page yet (a port with no receiver disconnects at once), or the host page went away.
    current.onDisconnect.addListener(() => {
      if (status === 'closed' || port !== current) return;
      if (status === 'connected') setStatus('connecting');
      if (--triesLeft < 0) {
        return giveUp(
          new AgentError(
            'port-refused',
            'The extension page that hosts the agent did not answer. Is its offscreen document or side panel open?',
          ),
        );
      }
      setTimeout(connect, options.retryMs ?? 250);
    });
  };
  connect();
  return {
    ready,
    get status() {
      return status;
    },
    disconnect: () => {
      setStatus('closed');
      port?.disconnect();
    },
  };
}
