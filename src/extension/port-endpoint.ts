/**
 * A chrome.runtime.Port as a comlink Endpoint, so the extension bridge is
 * "just another endpoint". Ports carry JSON, not structured clones: nothing
 * sent over one may need a transfer (no comlink proxies, no streams).
 */
import type { Endpoint } from 'comlink';
import type { ChromePort } from './chrome-types';

export function portEndpoint(port: ChromePort): Endpoint {
  const listeners = new Map<EventListenerOrEventListenerObject, (message: unknown) => void>();
  return {
    postMessage: (message: unknown) => port.postMessage(message),
    addEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
      const forward = (message: unknown) => {
        const event = { data: message } as MessageEvent;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      listeners.set(listener, forward);
      port.onMessage.addListener(forward);
    },
    removeEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
      const forward = listeners.get(listener);
      if (forward) port.onMessage.removeListener(forward);
      listeners.delete(listener);
    },
  };
}
