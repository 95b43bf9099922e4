/**
 * A model into llama.cpp: the browser and the page's policy checked before
 * any download, the files (cached, checked, with progress and abort), the
 * prompt writer read from the GGUF's header, and llama.cpp's own load with
 * our settings, raced against a stall, its worker's death and the abort.
 * With wllama-engine.ts, the only file that imports wllama: both are the
 * lazy chunk's.
 */
import { LogLevel, Wllama } from '@wllama/wllama/esm/index.js';
import defaultWasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { ModelProgress } from '../../engine';
import { mb } from './describe-files';
import { DOWNLOAD_SHARE } from './download-progress';
import { ggufPrompt } from './gguf-prompt';
import { sha256List } from './sha256-list';
import { withModelFiles } from './with-model-files';
import { measuredThreads } from './thread-choice';
import { checkEnvironment, gpuAdapterFound, threadsFor } from './wllama-environment';
import { watchWorkerStartedBy, type LlamaWorkerWatch } from './wllama-inner-worker';
import { checkWasm, loadAborted, settleOrStall } from './wllama-load-guards';
import type { WllamaLog } from './wllama-log';
import type { LoadedModel } from './wllama-model-info';
import type { WllamaEngineOptions } from './wllama-options';

const DEFAULT_STALL_MS = 90_000;

/**
 * Prompt tokens llama.cpp reads at a time on the CPU (wllama polls between two batches, and reads its abort signal
 * before each poll). Gemma 3 270M on one thread read 427 tokens at 16 tokens/s in batches of 128 as in one batch; in
 * batches of 64, 7% slower. A step stopped as it began to read 6,104 tokens left 256 read, 6,102 in one batch
 * (test/model/wllama/prefill-stop.browser.test.ts).
 */
const CPU_BATCH = 128;
/** The shortest run of the cached conversation llama.cpp moves instead of reading again. */
const CACHE_REUSE_TOKENS = 64;

export interface LoadHow {
  /** The model's name and context window before the load (the page's, or the URL's). */
  modelId: string;
  contextWindow: number;
  log: WllamaLog;
  onProgress?: (progress: ModelProgress) => void;
  signal?: AbortSignal;
  /** The llama.cpp being loaded, as soon as it exists (dispose() ends it), and undefined if its load failed. */
  onLlama(wllama: Wllama | undefined): void;
}

/** llama.cpp with the model loaded, the watch on its worker, and what the load found. */
export async function loadLlama(
  options: WllamaEngineOptions,
  how: LoadHow,
): Promise<{ wllama: Wllama; watch: LlamaWorkerWatch; bytes: number; model: LoadedModel }> {
  const { onProgress, signal, log } = how;
  await checkEnvironment();
  const wasmUrl = new URL(options.wasmUrl ?? defaultWasmUrl, self.location.href).href;
  await checkWasm(wasmUrl, signal);
  const allowed = threadsFor(options.threads);
  let threads = allowed.threads;
  let notice = allowed.notice;
  // Files llama.cpp refuses leave the cache, and a refused copy from the cache is downloaded again once (with-model-files.ts).
  const fileOptions = {
    onProgress,
    signal,
    stallMs: options.downloadStallMs,
    sha256: sha256List(options.sha256, options.urls.length),
  };
  const { files, value: started } = await withModelFiles(options.urls, fileOptions, async (files) => {
    if (signal?.aborted) throw loadAborted();
    // Read from the file's header before llama.cpp reads it: a file refused for its chat template leaves the cache.
    const written = await ggufPrompt(files.blobs[0]!, {
      modelId: options.modelId,
      toolFormat: options.toolFormat,
      url: options.urls[0]!,
    });
    // The count is fixed while the model stays loaded: measured now, after a download that may have taken minutes.
    const measured = await measuredThreads(allowed.threads, options.threads);
    threads = measured.threads;
    notice = measured.notice ?? allowed.notice;
    onProgress?.({
      progress: DOWNLOAD_SHARE,
      text: `Loading ${how.modelId} (${mb(files.bytes)}) into llama.cpp on ${threads === 1 ? 'one thread' : `${threads} threads`}…`,
      loadedBytes: files.bytes,
      totalBytes: files.bytes,
    });
    const { wllama, watch } = await startLlama(files.blobs, wasmUrl, threads, options, how);
    return { wllama, watch, written };
  });
  const { wllama, watch, written } = started;
  const model: LoadedModel = {
    metadata: wllama.getModelMetadata().meta,
    contextWindow: wllama.getLoadedContextInfo().n_ctx,
    written,
    threads,
    threadNotice: notice,
    notKept: files.notKept,
    logText: log.recent.join('\n'),
  };
  return { wllama, watch, bytes: files.bytes, model };
}

/** llama.cpp started on the page's wasm, the model's files loaded into it with our settings, or why not. */
async function startLlama(
  blobs: Blob[],
  wasmUrl: string,
  threads: number,
  options: WllamaEngineOptions,
  how: LoadHow,
): Promise<{ wllama: Wllama; watch: LlamaWorkerWatch }> {
  const { signal, log } = how;
  const onCpu = options.gpu === 'off' || !(await gpuAdapterFound());
  const wllama = new Wllama({ default: wasmUrl }, { logger: log.logger });
  wllama.setCompat(null); // no compatibility build from a CDN: the page's own files only
  how.onLlama(wllama);
  const mark = log.mark;
  const { watch, loading } = await watchWorkerStartedBy(() =>
    wllama.loadModel(blobs, {
      n_ctx: how.contextWindow,
      n_threads: threads,
      n_parallel: 1,
      // On the CPU, llama.cpp reads the prompt a batch at a time between two of wllama's polls: a small batch
      // lets a stop take effect and the reading show its progress within seconds, not after the whole prompt
      // (a minute for 500 tokens on two wasm threads). A GPU reads in large batches best; it keeps its default.
      ...(onCpu && { n_batch: CPU_BATCH, n_ubatch: CPU_BATCH }),
      log_level: LogLevel.DEBUG,
      // A model with sliding-window attention (Gemma 3) keeps the whole context's KV: a request whose prefix
      // is older than the window can still reuse it (after context trimming), instead of prefilling everything.
      swa_full: options.swaFull ?? true,
      // Once the window is full and the oldest turns leave the prompt, the turns after them are still in the
      // cache, only further along: llama.cpp finds runs of at least this many tokens there and shifts them into
      // place (llama-server's --cache-reuse), so a trimmed step reads its own message, not the conversation again.
      n_cache_reuse: CACHE_REUSE_TOKENS,
      ...(options.gpu === 'off' && { n_gpu_layers: 0 }),
      // llama.cpp's own name for a template, so that it never parses the GGUF's (gguf-prompt.ts writes every prompt).
      jinja: false,
      chat_template: 'chatml',
    }),
  );
  try {
    await settleOrStall(loading, log, options.stallMs ?? DEFAULT_STALL_MS, signal, watch.gone);
    // wllama resolves even when llama.cpp's load failed (it does not read the result's `success`).
    const result = wllama.getLoadedContextInfo() as { success?: boolean; n_ctx?: number };
    if (result.success === false || !result.n_ctx) throw new Error('llama.cpp did not load the model');
  } catch (error) {
    await wllama.exit().catch(() => undefined);
    how.onLlama(undefined);
    if (signal?.aborted) throw loadAborted();
    throw log.failure(error, mark, `Loading ${how.modelId} failed`);
  }
  return { wllama, watch };
}
