/**
 * The content-script side: a page's tools, defined in the content script
 * (they can read and change the visited page), offered to the extension's
 * agent over a runtime port. The extension page may not be up yet when the
 * content script starts, so connecting retries for a while.
 */
import * as Comlink from 'comlink';
import type { Tool } from '../tools/define-tool';
import { toDeclaration } from '../tools/to-declaration';
import { invokeTool } from '../tools/invoke-tool';
import { assertUniqueToolNames } from '../tools/define-tool';
import { chromeRuntime, type ChromePort } from './chrome-types';
import { portEndpoint } from './port-endpoint';
import { TOOLS_PORT, type ContentToolsApi } from './bridge-protocol';

export interface ExposeOptions {
  /** How often to try to reach the extension page, and how long to wait between tries. */
  retries?: number;
  retryMs?: number;
}

export interface PageToolsConnection {
  /** Resolves once the extension's host has the tools. */
  ready: Promise<void>;
  disconnect(): void;
}

export function exposePageTools(tools: Tool[], options: ExposeOptions = {}): PageToolsConnection {
  assertUniqueToolNames(tools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const running = new Map<string, AbortController>();
  const api: ContentToolsApi = {
    declarations: () => tools.map(toDeclaration),
    async callTool({ callId, name, args }) {
      const tool = byName.get(name);
      if (!tool) return { ok: false, ms: 0, error: { code: 'unknown-tool', message: `This page has no tool "${name}".` } };
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

  let port: ChromePort | undefined;
  let closed = false;
  const ready = new Promise<void>((resolve, reject) => {
    let tries = options.retries ?? 20;
    const connect = () => {
      if (closed) return;
      const runtime = chromeRuntime();
      const current = runtime.connect({ name: TOOLS_PORT });
      port = current;
      Comlink.expose(api, portEndpoint(current), ['*']);
      // The host answers with "ready" once it registered the tools; a port with no receiver disconnects at once.
      current.onMessage.addListener((message) => {
        if ((message as { type?: string })?.type === 'inpage-agent/ready') resolve();
      });
      current.onDisconnect.addListener(() => {
        if (closed) return;
        if (--tries <= 0) reject(new Error('The extension page that hosts the agent did not answer. Is its offscreen document or side panel open?'));
        else setTimeout(connect, options.retryMs ?? 250);
      });
    };
    connect();
  });
  ready.catch(() => undefined);
  return {
    ready,
    disconnect: () => {
      closed = true;
      port?.disconnect();
    },
  };
}
