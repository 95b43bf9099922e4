// The model picker: what this device can run (WebGPU, shader-f16, a memory estimate), the best
// model preselected, sizes and "downloaded" marks, and download progress with bytes, speed and
// time left.
import type { ModelProgress } from '../../src/index';
import { bestChoice, fits, modelChoices, type Device } from '../models';

const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

export async function probeDevice(): Promise<Device> {
  type Adapter = { features: Set<string> };
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<Adapter | null> } }).gpu;
  const adapter = await gpu?.requestAdapter().catch(() => null);
  // deviceMemory is rounded and capped at 8 GB by the browser; a model may take about half of it.
  const memoryGB = (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? 4;
  return { adapter: Boolean(adapter), f16: Boolean(adapter?.features.has('shader-f16')), budgetMB: memoryGB * 512 };
}

/** Model ids with files in Cache Storage (web-llm's default cache). */
async function downloaded(): Promise<Set<string>> {
  const found = new Set<string>();
  try {
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys())
        for (const choice of modelChoices) if (request.url.includes(choice.id)) found.add(choice.id);
  } catch {
    // No Cache Storage here (an opaque origin): nothing is marked.
  }
  return found;
}

const size = (mb: number) => (mb >= 1000 ? `${(mb / 1024).toFixed(1)} GB` : `${mb} MB`);

export async function fillPicker(device: Device): Promise<void> {
  const cached = await downloaded();
  const best = bestChoice(device);
  $('#model-select').replaceChildren(
    ...modelChoices.map((choice) => {
      const option = document.createElement('option');
      option.value = choice.id;
      const marks = [
        size(choice.vramMB),
        cached.has(choice.id) ? 'downloaded' : '',
        !device.adapter ? 'needs WebGPU' : choice.needsF16 && !device.f16 ? 'needs shader-f16' : '',
        fits(choice, device) ? '' : device.adapter && (!choice.needsF16 || device.f16) ? 'may not fit' : '',
        choice === best ? 'best fit' : '',
      ].filter(Boolean);
      option.textContent = `${choice.label} · ${marks.join(' · ')}`;
      // Without WebGPU nothing can load (the Load button says so), but the list still shows what there is.
      option.disabled = device.adapter && choice.needsF16 && !device.f16;
      option.selected = choice === (best ?? modelChoices.at(-1));
      return option;
    }),
  );
  const panel = $('#gpu-panel');
  panel.hidden = false;
  panel.classList.remove('error');
  if (!device.adapter) {
    panel.textContent =
      'This browser has no WebGPU, so no local model can run here: you are in demo mode, where a few rules stand in for a model. In Chrome or Edge on a computer with a graphics chip, WebGPU is on by default.';
    $<HTMLButtonElement>('#load-model').disabled = true;
  } else {
    panel.textContent = `WebGPU is available${device.f16 ? ' with shader-f16' : ' (without shader-f16: q4f16 models are greyed out)'}. About ${size(device.budgetMB)} of memory can go to a model here; the best fit is preselected. Models download once, then load from this browser's cache.`;
    $<HTMLButtonElement>('#load-model').disabled = false;
  }
  $('#model-hint').textContent = best ? `Suggested: ${best.label}.` : '';
}

/** Progress as "312 / 580 MB · 4.1 MB/s · 1 min left", from the bytes seen so far. */
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
    const seconds = (performance.now() - startedAt) / 1000;
    const speed = seconds > 0.5 ? (loadedBytes - firstBytes) / seconds : 0;
    const left = speed > 0 ? (totalBytes - loadedBytes) / speed : undefined;
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
    const remaining =
      left === undefined ? '' : left < 60 ? ` · ${Math.ceil(left)} s left` : ` · ${Math.ceil(left / 60)} min left`;
    $('#progress-text').textContent =
      `${mb(loadedBytes)} / ${mb(totalBytes)} MB${speed ? ` · ${(speed / 2 ** 20).toFixed(1)} MB/s` : ''}${remaining}`;
  };
}
