/**
 * Looks for a WebGPU adapter before anything is downloaded. web-llm itself
 * fetches the config and the model library first and checks the GPU only
 * then, so a visitor without WebGPU would wait for megabytes before learning
 * that nothing can run. This check answers in milliseconds.
 */
export interface GpuReport {
  available: boolean;
  /** Why WebGPU is unavailable, when it is. */
  reason?: 'no-navigator-gpu' | 'no-adapter' | 'request-failed';
  adapter?: { vendor: string; architecture: string; device: string; description: string; isFallbackAdapter: boolean };
  features: string[];
  shaderF16: boolean;
  maxBufferSize?: number;
  maxStorageBufferBindingSize?: number;
}

/** How long to wait for requestAdapter(); a browser that never answers is treated as having no adapter. */
const ADAPTER_TIMEOUT_MS = 5_000;

export async function probeWebGPU(
  gpu: GPU | undefined = (globalThis.navigator as Navigator | undefined)?.gpu,
): Promise<GpuReport> {
  if (!gpu) return { available: false, reason: 'no-navigator-gpu', features: [], shaderF16: false };
  let adapter: GPUAdapter | null;
  try {
    adapter = await Promise.race([
      gpu.requestAdapter({ powerPreference: 'high-performance' }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), ADAPTER_TIMEOUT_MS)),
    ]);
  } catch {
    return { available: false, reason: 'request-failed', features: [], shaderF16: false };
  }
  if (!adapter) return { available: false, reason: 'no-adapter', features: [], shaderF16: false };
  const info = adapter.info;
  const features = [...adapter.features].map(String).sort();
  return {
    available: true,
    adapter: {
      vendor: info?.vendor ?? '',
      architecture: info?.architecture ?? '',
      device: info?.device ?? '',
      description: info?.description ?? '',
      isFallbackAdapter: Boolean(
        (info as { isFallbackAdapter?: boolean } | undefined)?.isFallbackAdapter ??
        (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter,
      ),
    },
    features,
    shaderF16: adapter.features.has('shader-f16'),
    maxBufferSize: adapter.limits.maxBufferSize,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
  };
}

/** A one-line description of the adapter, for progress text and errors. */
export function describeAdapter(report: GpuReport): string {
  if (!report.adapter) return 'no WebGPU adapter';
  const { vendor, architecture, description, isFallbackAdapter } = report.adapter;
  const name = [vendor, architecture].filter(Boolean).join(' ') || description || 'unknown GPU';
  return `${name}${isFallbackAdapter ? ' (software fallback adapter)' : ''}${report.shaderF16 ? ', shader-f16' : ', no shader-f16'}`;
}
