/** ChatML's turn markup, shared by the families trained on it (Qwen, Hermes, SmolLM2). */
export const CHATML = {
  markup: 'chatml',
  templateTokens: ['<|im_start|>'],
  stops: ['<|im_start|>', '<|im_end|>'],
} as const;
