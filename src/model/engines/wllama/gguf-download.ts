/**
 * One file's request, watched: a download that gets no answer, or no bytes,
 * for `model.downloadStallMs` is aborted and fails with a stall, and an answer
 * that cannot be the file (a 404, an error status, an HTML page) fails before
 * its body is read.
 */
import { AgentError, messageOf } from '../../../errors';
import { amount } from './describe-files';
import { aborted, notGguf } from './file-errors';
import type { FileOptions } from './file-options';

/** How long a download may stand still (no answer, or no bytes since the last ones) before it fails. */
const DEFAULT_DOWNLOAD_STALL_MS = 30_000;

/**
 * One file's download: its response, what stopped it when something did, and a watch that aborts it when it
 * stands still for stallMs (no answer, or no bytes since the last ones).
 */
export class Download {
  response!: Response;
  /** Content-Length, or 0 when the server gives none. */
  length = 0;
  /** Bytes of the body so far. */
  received = 0;
  /** The body arrived whole. */
  complete = false;
  /** Why a check refused the body, when one did. */
  refused?: AgentError;
  /** Set when nothing came for stallMs. */
  stalled?: AgentError;
  private timer?: ReturnType<typeof setTimeout>;
  private readonly halt = new AbortController();

  private constructor(
    readonly url: string,
    private readonly stallMs: number,
  ) {}

  static async open(url: string, options: FileOptions): Promise<Download> {
    const download = new Download(url, options.stallMs ?? DEFAULT_DOWNLOAD_STALL_MS);
    const { signal } = options;
    download.moved();
    try {
      download.response = await request(
        url,
        signal ? AbortSignal.any([signal, download.halt.signal]) : download.halt.signal,
      );
    } catch (error) {
      download.stop();
      throw download.stalled ?? (signal?.aborted ? aborted() : error);
    }
    download.length = Number(download.response.headers.get('content-length')) || 0;
    return download;
  }

  /** Bytes came, or the body ended: the watch starts over, or stops. */
  moved(): void {
    clearTimeout(this.timer);
    if (this.complete) return;
    this.timer = setTimeout(() => {
      this.stalled = stalled(this.url, this.stallMs, this.received, this.length, Boolean(this.response));
      this.halt.abort(this.stalled);
    }, this.stallMs);
  }

  /** Ends the watch, and the download if it still runs. */
  stop(): void {
    clearTimeout(this.timer);
    this.halt.abort();
  }
}

async function request(url: string, signal: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    throw new AgentError(
      'download-failed',
      `The model file ${url} could not be downloaded (${messageOf(error)}). Check that this address is reachable from the page; a file on another origin must be served with CORS headers (Access-Control-Allow-Origin), and a Content-Security-Policy must allow it in connect-src.`,
      { cause: error },
    );
  }
  if (response.status === 404 || response.status === 410)
    throw new AgentError(
      'model-not-found',
      `There is no model file at ${url} (HTTP ${response.status}). Check model.url: it must be the address of a .gguf file (or, for a split model, the list of its files in order).`,
      { details: { url, status: response.status } },
    );
  if (!response.ok)
    throw new AgentError(
      'download-failed',
      `The model file ${url} could not be downloaded: the server answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}. Try again later, or host the file yourself and pass its address as model.url.`,
      { details: { url, status: response.status } },
    );
  if (/^text\/html/i.test(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel().catch(() => undefined);
    throw notGguf(
      url,
      'the server answered with an HTML page instead of the file (a missing file behind a page fallback, or a login page)',
    );
  }
  return response;
}

function stalled(url: string, stallMs: number, received: number, length: number, answered: boolean): AgentError {
  const where = !answered
    ? ' (not even an answer from the server)'
    : `, after ${amount(received)}${length ? ` of ${amount(length)}` : ''}`;
  return new AgentError(
    'download-failed',
    `Downloading ${url} stalled: nothing came for ${Math.round(stallMs / 1000)} s${where}. Nothing was kept. Check the connection and load again; model.downloadStallMs sets how long a download may stand still.`,
    { details: { url, received, stallMs } },
  );
}
