// Small prebuilt models to offer, with figures from @mlc-ai/web-llm 0.2.86's prebuiltAppConfig
// (vram_required_MB, and whether the quantization needs shader-f16). Copied as data so the
// page bundle never imports web-llm.
export interface ModelChoice {
  id: string;
  label: string;
  vramMB: number;
  needsF16: boolean;
}

export const modelChoices: ModelChoice[] = [
  { id: 'SmolLM2-360M-Instruct-q4f32_1-MLC', label: 'SmolLM2 360M', vramMB: 580, needsF16: false },
  { id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', label: 'Qwen2.5 0.5B', vramMB: 1060, needsF16: false },
  { id: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', label: 'Qwen2.5 1.5B', vramMB: 1630, needsF16: true },
  { id: 'Llama-3.2-1B-Instruct-q4f32_1-MLC', label: 'Llama 3.2 1B', vramMB: 1129, needsF16: false },
  { id: 'Hermes-3-Llama-3.1-8B-q4f32_1-MLC', label: 'Hermes 3 8B (native tool calls)', vramMB: 5780, needsF16: false },
];
