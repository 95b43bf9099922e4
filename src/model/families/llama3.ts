import type { ModelFamily } from './family';
import { llama3Json } from '../formats/llama3-json';

// llama.cpp's architecture 'llama' is every Llama, and many others: only the name tells Llama 3.
export const llama3: ModelFamily = {
  name: 'Llama 3.x',
  ids: /^Llama-3(\.\d)?-/i,
  format: llama3Json,
  markup: 'llama3',
  templateTokens: ['<|start_header_id|>'],
  stops: ['<|start_header_id|>', '<|eot_id|>'],
  endOfTurn: ['<|eot_id|>', '<|eom_id|>', '<|end_of_text|>'],
  tokenizer: 'llama3',
};
