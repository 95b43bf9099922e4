/**
 * What the runtime knows of a model family, in one record: how its models
 * are recognised (web-llm ids, GGUF names and architectures, chat-template
 * tokens), the markup its turns are written in, the tokens that end its
 * turn, the tool-call format it was trained on and the tokenizer its token
 * estimates are fitted to. families/index.ts lists them; every table that
 * tells families apart is derived from that list.
 */
import type { ToolFormat } from '../formats/tool-format';

/** The conversation markups we write for llama.cpp (wllama-template.ts renders them). */
export type TemplateName = 'gemma' | 'chatml' | 'llama3' | 'phi' | 'mistral';

/** The tokenizers the token estimate is fitted to (token-estimate.ts); 'generic' is their mean. */
export type TokenizerFamily = 'qwen' | 'llama3' | 'gemma' | 'generic';

export interface ModelFamily {
  /** As people name it. */
  readonly name: string;
  /** Model ids as web-llm names them, and GGUF names (general.name, the file name) with spaces as dashes. */
  readonly ids: RegExp;
  /** llama.cpp's architectures (general.architecture) of the family's GGUFs, for a GGUF whose name says nothing. */
  readonly architectures?: RegExp;
  /** The tool-call format the family was trained on: its prompt, grammar and writing (formats/); formats/registry.ts lists them from here. */
  readonly format: ToolFormat;
  /** Chat-template handling: the markup a prompt is written in when we write it (a GGUF without a template of its own). */
  readonly markup: TemplateName;
  /** A chat template that holds all of these is written in this family's markup. */
  readonly templateTokens: readonly string[];
  /** Where a turn ends in a raw completion: the next turn's opening (a base model writes it) and the end-of-turn token. */
  readonly stops: readonly string[];
  /** Tokens that end the family's turn; nothing after one belongs to the turn. */
  readonly endOfTurn: readonly string[];
  /** The tokenizer its token estimates are fitted to. */
  readonly tokenizer: TokenizerFamily;
}
