import type { Plugin } from 'vite';

/** /redirect?to=<url> answers 302 to <url>. */
export function serveRedirects(): Plugin;
