/**
 * What a model family's tool-call format is made of: how its prompt describes
 * the tools, the grammar that constrains its calls, the readers of its
 * output, and how an earlier turn and its tool results are written back.
 * One file per family implements it (formats/*.ts); nothing else in the
 * runtime knows a family's syntax.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import type { ModelToolCall } from '../engine';
import type { GrammarStep } from '../grammar/grammar-step';
import type { ArgumentSyntax } from '../grammar/string-syntax';
import type { StructuralTagFormat } from '../grammar/structural-tag';
import type { ToolFormatName } from './tool-format-name';

export type { GrammarStep, ToolFormatName };

export interface ToolResultText {
  callId: string;
  name: string;
  content: string;
}

export interface ToolFormat {
  /** One of TOOL_FORMAT_NAMES (tool-format-name.ts): a new format's name goes there, or tsc refuses it here. */
  readonly name: ToolFormatName;
  /** How the family writes a call, for people (docs, messages). */
  readonly summary: string;
  /** One call written in this format, shown to the model when its call could not be read. */
  readonly example: string;
  /** How a call's arguments are written: the syntax its grammar holds them in. */
  readonly argumentSyntax: ArgumentSyntax;
  /** The system-prompt section describing the tools. Depends on the tools only, so the prompt stays the same for every step of a run. */
  describeTools(tools: readonly ToolDeclaration[]): string;
  /** Qwen3.5's template puts the tools before the system text; the others after it. */
  readonly toolsFirst?: boolean;
  /** The family reasons in <think>…</think> before answering; a required call may follow it. */
  readonly thinks?: boolean;
  /** What may follow the family's trigger in one step (web-xgrammar's structural-tag format). */
  grammar(step: GrammarStep): StructuralTagFormat;
  /** An earlier turn of the model, written as the family writes it (when its raw output was not kept). */
  writeTurn(text: string, calls: readonly ModelToolCall[]): string;
  /** Tool results as the content of the user message the family reads them in. */
  writeResults(results: readonly ToolResultText[]): string;
}
