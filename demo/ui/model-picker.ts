// The model picker: what this device can run (WebGPU, shader-f16, a memory estimate), the best
// model preselected, sizes and "downloaded" marks, and download progress with bytes, speed and
// time left. Two kinds of model: web-llm's (WebGPU) and GGUF files for llama.cpp (the CPU, or
// WebGPU), each option's value saying which: `webllm:<id>` or `gguf:<id>`.
import type { ModelOptions, ModelProgress } from '../../src/index';
import { bestChoice, fits, ggufChoices, modelChoices, type Device } from '../models';

const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

export async function probeDevice(): Promise<Device> {
  type Adapter = { features: Set<string>; info?: { isFallbackAdapter?: boolean }; isFallbackAdapter?: boolean };
  const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<Adapter | null> } }).gpu;
  const adapter = await gpu?.requestAdapter().catch(() => null);
  // A model may take about half the memory the browser reports (rounded, and at most 8 GB counted).
  const memoryGB = Math.min(8, (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? 4);
  // A software adapter (no graphics chip) runs models on the CPU: only the smallest is bearable.
  const software = Boolean(adapter?.info?.isFallbackAdapter ?? adapter?.isFallbackAdapter);
  return {
    adapter: Boolean(adapter),
    f16: Boolean(adapter?.features.has('shader-f16')),
    budgetMB: software ? 1024 : memoryGB * 512,
    software,
  };
}

/** Model ids with files in Cache Storage (web-llm's default cache, and the GGUF cache). */
async function downloaded(): Promise<Set<string>> {
  const found = new Set<string>();
  try {
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys())
        for (const choice of [...modelChoices, ...ggufChoices])
          if (request.url.includes(choice.id)) found.add(choice.id);
  } catch {
    // No Cache Storage here (an opaque origin): nothing is marked.
  }
  return found;
}

const size = (mb: number) => (mb >= 1000 ? `${(mb / 1024).toFixed(1)} GB` : `${mb} MB`);

/** Fills the picker for this device; `selected`: the picker value of the model loaded now, if any. */
export async function fillPicker(device: Device, selected?: string): Promise<void> {
  const cached = await downloaded();
  const best = bestChoice(device);
  // Without WebGPU, the GGUF model suggested for the CPU.
  const bestGguf = best ? undefined : ggufChoices.find((choice) => choice.suggested);
  const webllm = document.createElement('optgroup');
  webllm.label = 'WebGPU models (web-llm)';
  webllm.append(
    ...modelChoices.map((choice) => {
      const option = document.createElement('option');
      option.value = `webllm:${choice.id}`;
      const marks = [
        size(choice.vramMB),
        cached.has(choice.id) ? 'downloaded' : '',
        !device.adapter ? 'needs WebGPU' : choice.needsF16 && !device.f16 ? 'needs shader-f16' : '',
        fits(choice, device) || !device.adapter || (choice.needsF16 && !device.f16)
          ? ''
          : device.software
            ? 'slow here'
            : 'may not fit',
        choice === best ? 'best fit' : '',
      ].filter(Boolean);
      option.textContent = `${choice.label} · ${marks.join(' · ')}`;
      option.disabled = !device.adapter || (choice.needsF16 && !device.f16);
      option.selected = selected ? option.value === selected : choice === best;
      return option;
    }),
  );
  const gguf = document.createElement('optgroup');
  gguf.label = 'GGUF models on the CPU or WebGPU (llama.cpp)';
  gguf.append(
    ...ggufChoices.map((choice) => {
      const option = document.createElement('option');
      option.value = `gguf:${choice.id}`;
      const marks = [
        size(choice.sizeMB),
        cached.has(choice.id) ? 'downloaded' : '',
        `about ${choice.tokensPerSecond} tokens/s on one CPU thread`,
        choice.mark ?? '',
        choice === bestGguf ? 'best fit' : '',
      ].filter(Boolean);
      option.textContent = `${choice.label} · ${marks.join(' · ')}`;
      option.selected = selected ? option.value === selected : choice === bestGguf;
      return option;
    }),
  );
  $('#model-select').replaceChildren(webllm, gguf);
  const panel = $('#gpu-panel');
  panel.hidden = false;
  panel.classList.remove('error');
  panel.textContent = device.adapter
    ? [
        device.software
          ? 'WebGPU runs in software here (no graphics chip), so a model runs slowly: the smallest is suggested.'
          : `WebGPU is available; about ${size(device.budgetMB)} of memory can go to a model, and the best fit is preselected.`,
        device.f16 ? '' : 'This adapter has no shader-f16, so q4f16 models are greyed out.',
        'A model downloads once, then loads from this browser’s cache.',
      ]
        .filter(Boolean)
        .join(' ')
    : 'This browser has no WebGPU, so the web-llm models cannot run here; a GGUF model runs on the CPU instead (llama.cpp), slower, so a small one is offered. Until you load it, you are in demo mode, where a few rules stand in for a model.';
  $<HTMLButtonElement>('#load-model').disabled = false;
  const suggested = best?.label ?? bestGguf?.label;
  // What to know about the selected model shows under the list, where a phone shows it too (no hover title).
  const hint = () => {
    const value = $<HTMLSelectElement>('#model-select').value;
    const note = ggufChoices.find((choice) => `gguf:${choice.id}` === value)?.note;
    $('#model-hint').textContent = [suggested && `Suggested: ${suggested}.`, note].filter(Boolean).join(' ');
  };
  $<HTMLSelectElement>('#model-select').onchange = hint;
  hint();
}

/** The engine options for a picker value (`webllm:<id>` or `gguf:<id>`). */
export function modelFor(value: string, onProgress: (progress: ModelProgress) => void): ModelOptions {
  const [kind, id] = [value.slice(0, value.indexOf(':')), value.slice(value.indexOf(':') + 1)];
  const gguf = ggufChoices.find((choice) => choice.id === id);
  if (kind === 'gguf' && gguf)
    return {
      engine: 'wllama',
      url: gguf.url,
      modelId: gguf.label,
      ...(gguf.toolFormat && { toolFormat: gguf.toolFormat }),
      // A base model writes until its token budget ends when it does not call: keep a step short.
      ...(gguf.base && { completion: { n_predict: 64 } }),
      onProgress,
    };
  return { engine: 'webllm', modelId: id, onProgress };
}

/** Whether these options load a base GGUF model (one call per request, no reply). */
export function isBaseModel(model: ModelOptions): boolean {
  return model.engine === 'wllama' && ggufChoices.some((choice) => choice.base && choice.url === model.url);
}

/** "312 / 580 MB · 4.1 MB/s · 1 min left": bytes so far, the speed since the first bytes, and the time left at that speed. */
export function describeProgress(loadedBytes: number, totalBytes: number, firstBytes: number, seconds: number): string {
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  const speed = seconds > 0.5 ? (loadedBytes - firstBytes) / seconds : 0;
  const left = speed > 0 ? (totalBytes - loadedBytes) / speed : undefined;
  const remaining =
    left === undefined ? '' : left < 60 ? ` · ${Math.ceil(left)} s left` : ` · ${Math.ceil(left / 60)} min left`;
  return `${mb(loadedBytes)} / ${mb(totalBytes)} MB${speed ? ` · ${(speed / 2 ** 20).toFixed(1)} MB/s` : ''}${remaining}`;
}

export function progressReporter(): (progress: ModelProgress) => void {
  const startedAt = performance.now();
  let firstBytes: number | undefined;
  return ({ progress, text, loadedBytes, totalBytes }) => {
    $<HTMLProgressElement>('#progress-bar').value = progress;
    if (!loadedBytes || !totalBytes) {
      $('#progress-text').textContent = text;
      return;
    }
    firstBytes ??= loadedBytes;
    $('#progress-text').textContent = describeProgress(
      loadedBytes,
      totalBytes,
      firstBytes,
      (performance.now() - startedAt) / 1000,
    );
  };
}
