/**
 * web-llm's LLMChatPipeline without weights: what MLCEngine calls on its
 * pipeline for a streamed chat completion, doing what the real one does with
 * everything but the model. It holds the Conversation that web-llm's engine
 * gives it (preparePrefillInput decides, with web-llm's own rule, whether to
 * keep it or to reset), renders the prompt with web-llm's own
 * getPromptArray / getPromptArrayLastRound (the whole conversation after a
 * reset, the last round when the cache is reused, as getInputData does), and
 * counts its tokens with a real tokenizer. Its "sampling" plays the next
 * scripted output token by token, with the real pipeline's stop rules (stop
 * tokens and strings, max_tokens, the context window) and finishReply.
 */
export interface TokenizerLike {
  encode(text: string): Int32Array;
  decode(ids: Int32Array): string;
}

/** One prefill: what it read and whether the KV cache was kept. */
export interface Prefill {
  /** Tokens prefilled (web-llm's usage.prompt_tokens). */
  tokens: number;
  /** The KV cache was emptied first (a new conversation). */
  reset: boolean;
  /** Tokens of this step's new round only (its last message and the reply header): what a kept cache prefills. */
  roundTokens: number;
  /** The token ids web-llm puts in front of a new conversation's text (the conv template's system_prefix_token_ids: BOS). */
  prefixIds: number[];
  /** The text this prefill read, as web-llm's Conversation wrote it (getPromptArray, or its last round when the cache is kept). */
  text: string;
}

interface ConversationLike {
  messages: unknown[];
  appendMessage(role: string, message: string, roleName?: string): void;
  appendReplyHeader(role: string): void;
  finishReply(message: string): void;
  getPromptArray(config?: unknown): (string | unknown[])[];
  getPromptArrayLastRound(config?: unknown): (string | unknown[])[];
  getStopStr(): string[];
  getStopTokens(): number[];
  reset(): void;
  config: { system_prefix_token_ids?: number[] };
}

export class WeightlessPipeline {
  readonly prefills: Prefill[] = [];
  private conversation: ConversationLike;
  private filledKVCacheLength = 0;
  private finishReason?: 'stop' | 'length' | 'abort';
  private stopTriggered = false;
  private outputIds: number[] = [];
  private outputMessage = '';
  private script: number[] = [];
  private maxTokens = Infinity;
  private resetSinceLastPrefill = true;
  private round = { prefillTokens: 0, decodeTokens: 0, completionTokens: 0 };

  constructor(
    readonly tokenizer: TokenizerLike,
    private readonly contextWindowSize: number,
    /** The text the model "generates" at each step, in order. */
    private readonly outputs: string[],
    /** Time each decoded token takes, so that a run can be stopped mid-answer. */
    private readonly msPerToken = 0,
  ) {
    // What compareConversationObject reads of a new pipeline's empty conversation.
    this.conversation = {
      messages: [],
      function_string: '',
      use_function_calling: false,
      override_system_message: undefined,
      isTextCompletion: false,
    } as unknown as ConversationLike;
  }

  // ---- what preparePrefillInput uses
  getConversationObject() {
    return this.conversation;
  }
  setConversation(conversation: ConversationLike) {
    this.conversation = conversation;
  }
  getFinishReason() {
    return this.finishReason;
  }
  resetChat() {
    this.conversation.reset?.();
    this.finishReason = undefined;
    this.filledKVCacheLength = 0;
    this.resetSinceLastPrefill = true;
  }

  // ---- prefill and decode (forwardPrefill, processNextToken)
  async prefillStep(
    input: string,
    role: string,
    roleName: string | undefined,
    genConfig?: { max_tokens?: number | null },
  ) {
    this.round = { prefillTokens: 0, decodeTokens: 0, completionTokens: 0 };
    this.stopTriggered = false;
    this.finishReason = undefined;
    this.outputIds = [];
    this.outputMessage = '';
    this.maxTokens = genConfig?.max_tokens ?? Infinity;
    const next = this.outputs.shift();
    if (next === undefined) throw new Error('The weightless pipeline has no scripted output left.');
    this.script = [...this.tokenizer.encode(next)];

    this.conversation.appendMessage(role, input, roleName);
    this.conversation.appendReplyHeader('assistant');
    const fresh = this.filledKVCacheLength === 0;
    const prompts = fresh ? this.conversation.getPromptArray() : this.conversation.getPromptArrayLastRound();
    const prefixIds = fresh ? [...(this.conversation.config.system_prefix_token_ids ?? [])] : [];
    const tokens = prefixIds.length + this.count(prompts);
    // A first message has no earlier round: the whole prompt is new.
    const roundTokens =
      this.conversation.messages.length >= 3 ? this.count(this.conversation.getPromptArrayLastRound()) : tokens;
    const text = prompts.join('');
    this.prefills.push({ tokens, reset: this.resetSinceLastPrefill, roundTokens, prefixIds, text });
    this.resetSinceLastPrefill = false;
    this.filledKVCacheLength += tokens;
    this.round.prefillTokens += tokens;
    this.sample();
  }

  async decodeStep() {
    if (this.msPerToken) await new Promise((resolve) => setTimeout(resolve, this.msPerToken));
    this.filledKVCacheLength += 1; // the last sampled token goes through the model
    this.round.decodeTokens += 1;
    this.sample();
  }

  private sample() {
    const stopTokens = this.conversation.getStopTokens();
    const token = this.script.length ? this.script.shift()! : stopTokens[0];
    this.round.completionTokens += 1;
    if (stopTokens.includes(token)) {
      this.stopTriggered = true;
      this.finishReason = 'stop';
    } else this.outputIds.push(token);
    let message = this.tokenizer.decode(Int32Array.from(this.outputIds));
    for (const stop of this.conversation.getStopStr()) {
      const at = message.lastIndexOf(stop);
      if (at !== -1) {
        message = message.slice(0, at);
        this.stopTriggered = true;
        this.finishReason = 'stop';
        break;
      }
    }
    this.outputMessage = message;
    if (this.outputIds.length >= this.maxTokens || this.filledKVCacheLength >= this.contextWindowSize) {
      this.stopTriggered = true;
      this.finishReason = 'length';
    }
    if (this.stopTriggered) this.conversation.finishReply(this.outputMessage);
  }

  private count(prompts: (string | unknown[])[]): number {
    let total = 0;
    for (const prompt of prompts) {
      if (typeof prompt !== 'string') throw new Error('The weightless pipeline reads text prompts only.');
      total += this.tokenizer.encode(prompt).length;
    }
    return total;
  }

  // ---- what the streaming loop and its chunks read
  stopped() {
    return this.stopTriggered;
  }
  triggerStop() {
    if (this.stopTriggered) return;
    this.stopTriggered = true;
    this.finishReason = 'abort';
    this.conversation.finishReply(this.outputMessage);
  }
  getMessage() {
    return this.outputMessage;
  }
  setSeed() {}
  getTokenLogprobArray() {
    return [];
  }
  getCurRoundPrefillTotalTokens() {
    return this.round.prefillTokens;
  }
  getCurRoundDecodingTotalTokens() {
    return this.round.decodeTokens;
  }
  getCurRoundCompletionTotalTokens() {
    return this.round.completionTokens;
  }
  getCurRoundPrefillTotalTime() {
    return 0;
  }
  getCurRoundDecodingTotalTime() {
    return 0;
  }
  getCurRoundPrefillTokensPerSec() {
    return 0;
  }
  getCurRoundDecodingTokensPerSec() {
    return 0;
  }
  getCurRoundGrammarInitTotalTime() {
    return 0;
  }
  getCurRoundGrammarPerTokenTotalTime() {
    return 0;
  }
  getCurRoundLatencyBreakdown() {
    return undefined;
  }
  dispose() {}
  async sync() {}
}
