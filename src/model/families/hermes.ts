import { CHATML } from './chatml';
import type { ModelFamily } from './family';
import { hermes as hermesFormat } from '../formats/hermes';

/** Hermes fine-tunes of Llama 3 (Hermes 2 Pro, 2 Theta, 3): Llama 3's tokenizer. */
export const hermesLlama3: ModelFamily = {
  name: 'Hermes on Llama 3',
  ids: /^(Open|Neural)?Hermes-.*Llama-3/i,
  format: hermesFormat,
  ...CHATML,
  endOfTurn: ['<|im_end|>'],
  tokenizer: 'llama3',
};

/** The other Hermes fine-tunes (of Mistral 7B). */
export const hermes: ModelFamily = {
  name: 'Hermes',
  ids: /^(Open|Neural)?Hermes-/i,
  format: hermesFormat,
  ...CHATML,
  endOfTurn: ['<|im_end|>', '</s>'],
  tokenizer: 'generic',
};
