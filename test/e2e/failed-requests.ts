import type { Page } from 'playwright-core';

/**
 * Requests the browser refused or that failed (a resource COEP blocks fails with ERR_BLOCKED_BY_RESPONSE),
 * besides the visit's own problems; not those the page cancelled itself (ERR_ABORTED: the engine reads the
 * start of llama.cpp's wasm to check it, then stops).
 */
export function failedRequests(page: Page): string[] {
  const failed: string[] = [];
  page.on('requestfailed', (request) => {
    const why = request.failure()?.errorText ?? '';
    if (why !== 'net::ERR_ABORTED') failed.push(`${why} ${request.url()}`);
  });
  return failed;
}
