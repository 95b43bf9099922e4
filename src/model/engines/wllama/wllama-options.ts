/**
 * What a page chooses for a GGUF model through llama.cpp (wllama): model: { engine: 'wllama', … }.
 * A new llama.cpp setting is added here and read in this folder; nothing outside it changes.
 */
import type { ModelProgress } from '../../engine';
import type { ToolFormatName } from '../../formats/tool-format-name';

export type WllamaModelOptions = {
  /** Any GGUF model through llama.cpp in WebAssembly (@wllama/wllama), on the CPU or WebGPU. */
  engine: 'wllama';
  /** The .gguf file's address, or the addresses of a split model's files in order; relative to the page. */
  url: string | string[];
  /** A name for the model (its label, and the family whose format it writes); default: the GGUF's own. */
  modelId?: string;
  /** Use this family's tool-call format instead of the one the model's name or architecture implies. */
  toolFormat?: ToolFormatName;
  /** Tokens of context llama.cpp allocates (default 4096). */
  contextWindow?: number;
  /** CPU threads; more than one only where the page is cross-origin isolated (default: half the cores there, at least two of two, else 1). */
  threads?: number;
  /** 'auto' (default): WebGPU where the browser has it; 'off': the CPU only. */
  gpu?: 'auto' | 'off';
  /** Where llama.cpp's wllama.wasm is served (default: beside the worker's chunks). */
  wasmUrl?: string;
  /**
   * The SHA-256 (hex) of the .gguf file, or one per file of a split model in the order of `url`: each file is
   * checked against it before llama.cpp reads it, from the cache too; a file that differs is model-invalid and
   * is not kept. Checking holds a file in memory for a moment (one file at a time).
   */
  sha256?: string | string[];
  /** How long a download may stand still (no answer, or no bytes since the last) before it fails with download-failed (default 30,000 ms). */
  downloadStallMs?: number;
  /** Sampling temperature for every step (default 0: always the most likely token). */
  temperature?: number;
  seed?: number;
  /**
   * 'one': each step ends with its first call; 'any': the model may go on writing and calling after it.
   * Default: 'one' for a model whose GGUF has no chat template (a base model does not end its turn by itself), else 'any'.
   */
  callsPerStep?: 'one' | 'any';
  /** false: decode without the grammar; calls are read and validated after generation, as with any text (default true). */
  grammar?: boolean;
  /** llama.cpp completion fields sent with every step, in its own names (e.g. { repeat_penalty: 1.1, top_k: 40 }). */
  completion?: Record<string, unknown>;
  onProgress?: (progress: ModelProgress) => void;
};

/**
 * The page's wllama options as the engine takes them: the URLs made absolute (the worker's base is not the page's),
 * and two knobs for tests and benchmarks.
 */
export type WllamaEngineOptions = Omit<WllamaModelOptions, 'engine' | 'url' | 'onProgress'> & {
  /** Absolute URLs of the GGUF file, or of a split model's files in order. */
  urls: string[];
  /** Keep a sliding-window model's whole KV (default true; see wllama-load.ts). */
  swaFull?: boolean;
  /** How long a load may go without a word from llama.cpp before it counts as stalled (default 90 s). */
  stallMs?: number;
};
