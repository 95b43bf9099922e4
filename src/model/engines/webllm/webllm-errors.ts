/**
 * Every way loading or running a web-llm model fails, as an AgentError whose
 * message says what to do. web-llm's error classes are not exported, so we
 * match on `name` and on message text; some failures (a 404 behind the Cache
 * API, an empty .wasm) carry neither the URL nor the status, so we ask the
 * server again to find out which file failed and how.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import { AgentError, messageOf } from '../../../errors';
import { configUrlOf } from './webllm-app-config';
import { describeAdapter, type GpuReport } from './webllm-gpu';

export interface FailureContext {
  modelId: string;
  record?: ModelRecord;
  /** Model ids of the app config, for "did you mean". */
  knownIds: readonly string[];
  /** Asks the server for a URL again; replaceable for tests. */
  probe?: (url: string) => Promise<ProbeResult>;
}

export type ProbeResult =
  { url: string; status: number; ok: boolean; bytes?: number; contentType?: string } | { url: string; error: string };

const SCRIPTED_HINT =
  'Without WebGPU you can still try the agent with the scripted engine (model: { engine: "scripted", turns }).';

export function webgpuUnavailable(report?: GpuReport, cause?: unknown): AgentError {
  const why =
    report?.reason === 'no-navigator-gpu'
      ? 'This browser has no WebGPU (navigator.gpu is missing).'
      : 'This browser has WebGPU but found no usable GPU adapter.';
  return new AgentError(
    'webgpu-unavailable',
    `${why} Use a recent Chrome or Edge with hardware acceleration on (chrome://settings/system); on Linux, or where the GPU is blocklisted, enable chrome://flags/#enable-unsafe-webgpu (or start Chromium with --enable-unsafe-webgpu); in Firefox or Safari enable WebGPU in their settings. ${SCRIPTED_HINT}`,
    { cause, details: report },
  );
}

export function shaderF16Missing(
  modelId: string,
  knownIds: readonly string[],
  report?: GpuReport,
  cause?: unknown,
): AgentError {
  const alternative = f32Alternative(modelId, knownIds);
  return new AgentError(
    'shader-f16-missing',
    `The model ${modelId} needs the WebGPU feature shader-f16, which this GPU${report?.adapter ? ` (${describeAdapter(report)})` : ''} does not offer. ` +
      (alternative
        ? `Use ${alternative} instead (the same model with 32-bit floats).`
        : 'Use a q4f32 or q0f32 variant of the model (its id contains "f32").'),
    { cause, details: report },
  );
}

export function modelNotFound(modelId: string, knownIds: readonly string[], cause?: unknown): AgentError {
  const close = closestIds(modelId, knownIds, 3);
  return new AgentError(
    'model-not-found',
    `There is no model "${modelId}" in the model list.` +
      (close.length ? ` Closest ids: ${close.join(', ')}.` : '') +
      " Use an id from web-llm's prebuilt list, or add a record for it to model.appConfig.model_list.",
    { cause, details: { modelId, closest: close } },
  );
}

/** Turns anything web-llm threw into an AgentError, asking the server again where that tells more. */
export async function toAgentError(error: unknown, context: FailureContext): Promise<AgentError> {
  if (error instanceof AgentError) return error;
  const name = error instanceof Error ? error.name : '';
  const message = messageOf(error);
  const probe = context.probe ?? probeUrl;

  if (
    name === 'WebGPUNotAvailableError' ||
    /Unable to find a compatible GPU|WebGPU is not supported|navigator\.gpu/i.test(message)
  ) {
    return webgpuUnavailable(undefined, error);
  }
  if (name === 'ShaderF16SupportError' || /shader-f16/.test(message))
    return shaderF16Missing(context.modelId, context.knownIds, undefined, error);
  if (name === 'FeatureSupportError') {
    return new AgentError(
      'webgpu-unavailable',
      `This GPU lacks a WebGPU feature the model needs: ${message} Choose a model without that requirement. ${SCRIPTED_HINT}`,
      { cause: error },
    );
  }
  if (name === 'ModelNotFoundError' || /Cannot find model record/.test(message))
    return modelNotFound(context.modelId, context.knownIds, error);
  if (name === 'DeviceLostError' || /device (was )?lost/i.test(message)) {
    return new AgentError(
      'device-lost',
      `The GPU device was lost while running ${context.modelId}, most often because it ran out of memory. Reload the page; if it happens again, choose a smaller model (fewer parameters or a shorter context window) and close other GPU-heavy tabs.`,
      { cause: error },
    );
  }
  if (
    /out of memory|OOM|Failed to allocate|allocation failed|exceeds the (max|limit)|maxBufferSize|maxStorageBufferBindingSize/i.test(
      message,
    )
  ) {
    return new AgentError(
      'out-of-memory',
      `There is not enough GPU memory for ${context.modelId}${context.record?.vram_required_MB ? ` (it needs about ${Math.round(context.record.vram_required_MB)} MB)` : ''}. Choose a smaller model, or close other tabs that use the GPU. (${message})`,
      { cause: error },
    );
  }
  if (name === 'AbortError' || /aborted|unload\(\) is called/i.test(message)) {
    return new AgentError('aborted', 'Loading the model was aborted.', { cause: error });
  }
  if (name === 'IntegrityError') {
    return new AgentError(
      'download-failed',
      `A model file did not match its integrity hash: ${message} The server holds other files than the model record expects; fix the files or the record's integrity.`,
      { cause: error },
    );
  }
  const isWasmFailure =
    name === 'CompileError' || name === 'LinkError' || /WebAssembly|BufferSource|wasm|magic word/i.test(message);
  const isFetchFailure =
    /Failed to fetch|NetworkError|Request failed|Cannot fetch|failed to fetch|Load failed|'add' on 'Cache'|HTTP|status/i.test(
      message,
    ) ||
    name === 'TypeError' ||
    name === 'SyntaxError';

  if (isWasmFailure || isFetchFailure) {
    const urls = context.record
      ? isWasmFailure
        ? [context.record.model_lib]
        : [configUrlOf(context.record), context.record.model_lib]
      : [];
    for (const url of urls) {
      const result = await probe(url);
      if ('error' in result) {
        return new AgentError(
          'download-failed',
          `Could not download ${url}: ${result.error}. Check that the server is reachable and allows this page's origin (CORS), then reload.`,
          { cause: error, details: result },
        );
      }
      if (!result.ok) {
        return new AgentError(
          'download-failed',
          `Could not download ${url}: HTTP ${result.status}. Check the URL in model.appConfig (model and model_lib) and that the file is on the server.`,
          { cause: error, details: result },
        );
      }
      if (result.contentType?.includes('text/html') && !/\.html?$/.test(new URL(url).pathname)) {
        // Single-page-app servers answer a missing file with their index page and status 200.
        return new AgentError(
          'download-failed',
          `Could not download ${url}: the server answered HTTP ${result.status} with an HTML page instead of the file, which is how many servers answer for a missing file. Check the URL in model.appConfig (model and model_lib) and that the file is on the server.`,
          { cause: error, details: result },
        );
      }
    }
    if (isWasmFailure && context.record) {
      const url = context.record.model_lib;
      return new AgentError(
        'model-lib-invalid',
        `The model library ${url} is not a valid WebAssembly module for web-llm (${message}). Point model_lib at the .wasm compiled for ${context.modelId} and this web-llm version; an empty or truncated file, or an HTML error page served in its place, gives this error.`,
        { cause: error, details: { url } },
      );
    }
    return new AgentError(
      'download-failed',
      `Downloading the model ${context.modelId} failed: ${message}. Check the network connection and the URLs in model.appConfig, then reload.`,
      { cause: error, details: { urls } },
    );
  }
  return new AgentError('model-failed', `The model ${context.modelId} failed: ${message}`, { cause: error });
}

/** GET with no cache; only the status and size matter. */
async function probeUrl(url: string): Promise<ProbeResult> {
  try {
    const response = await fetch(url, { cache: 'no-store' });
    const bytes = response.ok ? (await response.arrayBuffer()).byteLength : undefined;
    const contentType = response.headers.get('content-type') ?? undefined;
    return {
      url,
      status: response.status,
      ok: response.ok,
      ...(bytes !== undefined && { bytes }),
      ...(contentType && { contentType }),
    };
  } catch (error) {
    return { url, error: messageOf(error) };
  }
}

/** The ids closest to `id` by edit distance (case-insensitive), nearest first. */
export function closestIds(id: string, ids: readonly string[], count: number): string[] {
  const target = id.toLowerCase();
  return ids
    .map((candidate) => ({ candidate, distance: editDistance(target, candidate.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map((entry) => entry.candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The 32-bit-float sibling of an f16 model id, when the list has one. */
export function f32Alternative(modelId: string, knownIds: readonly string[]): string | undefined {
  const candidate = modelId.replace(/q4f16_1/, 'q4f32_1').replace(/q0f16/, 'q0f32');
  if (candidate !== modelId && knownIds.includes(candidate)) return candidate;
  return knownIds.find((id) => /f32/.test(id) && id.split('-')[0] === modelId.split('-')[0]);
}
