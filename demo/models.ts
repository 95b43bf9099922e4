// Small prebuilt models to offer, with figures from @mlc-ai/web-llm 0.2.86's prebuiltAppConfig
// (vram_required_MB, and whether the quantization needs shader-f16). Copied as data so the
// page bundle never imports web-llm. Ordered from the most capable to the smallest.
export interface ModelChoice {
  id: string;
  label: string;
  vramMB: number;
  needsF16: boolean;
}

export const modelChoices: ModelChoice[] = [
  { id: 'Hermes-3-Llama-3.1-8B-q4f32_1-MLC', label: 'Hermes 3 8B (native tool calls)', vramMB: 5780, needsF16: false },
  { id: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', label: 'Qwen2.5 1.5B', vramMB: 1630, needsF16: true },
  { id: 'Llama-3.2-1B-Instruct-q4f32_1-MLC', label: 'Llama 3.2 1B', vramMB: 1129, needsF16: false },
  { id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', label: 'Qwen2.5 0.5B', vramMB: 1060, needsF16: false },
  { id: 'SmolLM2-360M-Instruct-q4f32_1-MLC', label: 'SmolLM2 360M', vramMB: 580, needsF16: false },
];

/**
 * GGUF models llama.cpp runs in the worker (the wllama engine): on the CPU of any browser, on
 * WebGPU where there is one. Served from the demo's own origin (`models/…`: `npm start` serves
 * the machine's model cache there, scripts/model-files.mjs; scripts/fetch-model.sh fetches them);
 * sizes are the files'. The expected speed is what each decoded at on one thread of this project's
 * 2-core x86 test machine (scripts/measure-threads.mjs measures it again): the 0.5B 2.4–3.4 tokens/s, Gemma
 * about 4; the 1.5B's is estimated from the 0.5B's (three times the weights to read per token), not measured.
 */
export interface GgufChoice {
  id: string;
  label: string;
  url: string;
  /** The file's size, in MB. */
  sizeMB: number;
  /** Decoding speed measured on one CPU thread, in tokens per second. */
  tokensPerSecond: number;
  /** The family's tool-call format, when its name does not say it. */
  toolFormat?: 'gemma-tool-code';
  /** The choice without WebGPU. */
  suggested?: boolean;
  /**
   * A base model (no chat template): it continues patterns, so each request gets one required call and no
   * reply, since after a tool's output it repeats its call instead of answering.
   */
  base?: boolean;
  /** A short mark in the list (e.g. "base model"). */
  mark?: string;
  /** What a visitor should know before choosing it, shown under the list when it is selected. */
  note?: string;
}

export const ggufChoices: GgufChoice[] = [
  {
    id: 'qwen2.5-coder-0.5b-instruct-q4_k_m',
    label: 'Qwen2.5-Coder 0.5B Instruct',
    url: 'models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
    sizeMB: 469,
    tokensPerSecond: 3,
    suggested: true,
    note: 'An instruction-tuned model: it calls the page’s tools and replies in words. Small enough for most devices; its first answer takes a while on a CPU.',
  },
  {
    id: 'qwen2.5-coder-1.5b-instruct-q4_k_m',
    label: 'Qwen2.5-Coder 1.5B Instruct',
    url: 'models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf',
    sizeMB: 1066,
    tokensPerSecond: 1,
    mark: 'better, bigger',
    note: 'The better choice if your device has the memory and the patience: it follows requests more reliably than the 0.5B, and reads and writes about three times slower.',
  },
  {
    id: 'gemma-3-270m-q4_k_m',
    label: 'Gemma 3 270M (Q4_K_M)',
    url: 'models/gemma-3-270m-q4_k_m.gguf',
    sizeMB: 241,
    tokensPerSecond: 4,
    base: true,
    mark: 'base model',
    note: 'A base model, not trained to chat: it answers each request with one tool call and never replies in words. The smallest download.',
  },
];

export interface Device {
  /** Whether a WebGPU adapter was found. */
  adapter: boolean;
  f16: boolean;
  /** What the page may use for a model, in MB: half the device's memory, and no more than the GPU's largest buffer allows. */
  budgetMB: number;
  /** A software adapter (e.g. SwiftShader): WebGPU on the CPU. */
  software?: boolean;
}

export function fits(choice: ModelChoice, device: Device): boolean {
  return device.adapter && (!choice.needsF16 || device.f16) && choice.vramMB <= device.budgetMB;
}

/** The most capable model that fits; the smallest that can run at all when none fits the budget. */
export function bestChoice(device: Device): ModelChoice | undefined {
  return (
    modelChoices.find((choice) => fits(choice, device)) ??
    [...modelChoices].reverse().find((choice) => device.adapter && (!choice.needsF16 || device.f16))
  );
}
