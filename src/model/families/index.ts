/**
 * Every model family the runtime knows, in the one order every lookup takes:
 * the first family that matches wins. Ids and names of different families
 * never overlap; the order decides between architectures (gemma4 before the
 * other gemma) and between chat-template tokens (Gemma's before ChatML's).
 * A model of no family here writes the generic JSON format in ChatML.
 */
import type { ModelFamily, TemplateName, TokenizerFamily } from './family';
import { gemma, gemma4 } from './gemma';
import { hermes, hermesLlama3 } from './hermes';
import { llama3 } from './llama3';
import { mistral } from './mistral';
import { phi3, phi4Mini } from './phi';
import { qwen25 } from './qwen2-5';
import { qwen3 } from './qwen3';
import { qwen35 } from './qwen3-5';
import { smollm2 } from './smollm2';

export type { TemplateName, TokenizerFamily };

export const FAMILIES: readonly ModelFamily[] = [
  gemma4,
  gemma,
  qwen35,
  qwen3,
  qwen25,
  hermesLlama3,
  hermes,
  smollm2,
  llama3,
  phi4Mini,
  phi3,
  mistral,
];

/** The family a web-llm model id names, as it is written. */
export function familyOfId(modelId: string): ModelFamily | undefined {
  return FAMILIES.find((family) => family.ids.test(modelId));
}

/** The family a model name names: a web-llm id, or a GGUF's name spelled as "gemma-3-270m", "Qwen2.5 0.5B Instruct". */
export function familyNamed(name: string): ModelFamily | undefined {
  const spelled = name.replace(/\s+/g, '-');
  const joined = spelled.replace(/^gemma-(\d)/i, 'gemma$1');
  return FAMILIES.find((family) => family.ids.test(spelled) || family.ids.test(joined));
}

/** The family of a llama.cpp architecture (general.architecture). */
export function familyOfArchitecture(architecture: string): ModelFamily | undefined {
  return FAMILIES.find((family) => family.architectures?.test(architecture));
}

/** The family whose markup a chat template is written in, by the tokens it uses. */
export function familyOfTemplate(template: string): ModelFamily | undefined {
  return FAMILIES.find((family) => family.templateTokens.every((token) => template.includes(token)));
}

/** Every family's end-of-turn tokens, each once. */
export const END_OF_TURN_TOKENS: readonly string[] = [...new Set(FAMILIES.flatMap((family) => family.endOfTurn))];

/** The stops of every family written in a markup, each once. */
export function markupStops(markup: TemplateName): string[] {
  return [...new Set(FAMILIES.filter((family) => family.markup === markup).flatMap((family) => family.stops))];
}
