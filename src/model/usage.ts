/** What a model step cost, in tokens: the engine measures it, the session records it on the step's event. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the engine found in its cache from the last step, not prefilled again (wllama). */
  cachedPromptTokens?: number;
  /** The counts are an estimate, not the model's tokenizer's (the scripted engine): nothing learns from them. */
  estimated?: boolean;
}
