import type { ModelFamily } from './family';
import { genericJson } from '../formats/generic-json';
import { phi4Functools } from '../formats/phi4-functools';

const PHI = {
  markup: 'phi',
  templateTokens: ['<|assistant|>', '<|end|>'],
  stops: ['<|user|>', '<|end|>'],
  endOfTurn: ['<|end|>', '<|endoftext|>'],
  tokenizer: 'generic',
} as const;

// Phi-4-mini's GGUFs say phi3, as Phi-3's do: only the name tells its format.
export const phi4Mini: ModelFamily = {
  name: 'Phi-4-mini',
  ids: /^Phi-4-mini/i,
  format: phi4Functools,
  ...PHI,
};

/** Phi-3, Phi-3.5 and every other phi architecture: no trained tool format of their own. */
export const phi3: ModelFamily = {
  name: 'Phi-3, Phi-3.5',
  ids: /^Phi-3/i,
  architectures: /^phi/,
  format: genericJson,
  ...PHI,
};
