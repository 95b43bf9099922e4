/**
 * Each tool-call format as the random-model check drives it: the grammar web-llm
 * would receive, the family's real tokenizer, the format's own markup, our
 * reader, and an independent reading of what the grammar made the model write.
 */
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { parseToolCalls } from '../../../src/model/parse-tool-calls';
import { TOOL_CALL_BEGIN, TOOL_CALL_END, toolCallStructuralTag } from '../../../src/model/tool-grammar';
import { readJsonTags, type Expected } from './json-tag-oracle';
import type { TokenizerPackage } from './vocabulary';

export interface ReadCalls {
  calls: { name: string; args: unknown }[];
  errors: { message: string }[];
}

export interface FormatUnderProof {
  name: string;
  /** The family's real tokenizer. */
  tokenizer: TokenizerPackage;
  /** What web-llm hands to xgrammar's compileStructuralTag for these tools. */
  structuralTag(tools: ToolDeclaration[]): unknown;
  /** The format's own markup strings, its trigger first. */
  markup: string[];
  /** Our reader, given the output and how the generation ended. */
  read(text: string, finish: 'stop' | 'length', tools: ToolDeclaration[]): ReadCalls;
  /** What the output holds, read without our reader. */
  expected(text: string): Expected;
}

const call = (value: unknown) => {
  const { name, arguments: args } = value as { name: string; arguments: unknown };
  return { name, args };
};

export const formatsUnderProof: FormatUnderProof[] = [
  {
    name: 'Hermes <tool_call> (Qwen2.5)',
    tokenizer: 'qwen2_5',
    structuralTag: (tools) => toolCallStructuralTag(tools),
    markup: [TOOL_CALL_BEGIN, TOOL_CALL_END],
    read: (text, _finish, tools) => parseToolCalls(text, { toolNames: tools.map((t) => t.name) }),
    expected: (text) => readJsonTags(text, { begin: TOOL_CALL_BEGIN, end: TOOL_CALL_END, toCall: call }),
  },
];
