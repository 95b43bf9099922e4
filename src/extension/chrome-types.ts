/** The few chrome.* extension APIs the bridge uses, typed here instead of pulling in @types/chrome. */
export interface ChromePort {
  name: string;
  sender?: { id?: string; url?: string; tab?: { id?: number } };
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: ChromeEvent<(message: unknown, port: ChromePort) => void>;
  onDisconnect: ChromeEvent<(port: ChromePort) => void>;
}

export interface ChromeEvent<F> {
  addListener(listener: F): void;
  removeListener(listener: F): void;
}

export interface ChromeRuntime {
  id: string;
  connect(info: { name: string }): ChromePort;
  onConnect: ChromeEvent<(port: ChromePort) => void>;
  onConnectExternal?: ChromeEvent<(port: ChromePort) => void>;
  lastError?: { message?: string };
}

export function chromeRuntime(): ChromeRuntime {
  const runtime = (globalThis as { chrome?: { runtime?: ChromeRuntime } }).chrome?.runtime;
  if (!runtime?.id) throw new Error('This runs only inside a browser extension (chrome.runtime is missing).');
  return runtime;
}
