/**
 * SmolLM2: a JSON list of calls inside one Hermes tag,
 * `<tool_call>[{"name": …, "arguments": {…}}]</tool_call>`, and `[]` when no
 * tool fits. Prompt after the function-calling prompt of SmolLM2's model card
 * (HuggingFaceTB/SmolLM2-1.7B-Instruct), with plain answers allowed.
 */
import { pythonJson } from './python-json';
import { toolEntry } from '../grammar/grammar-schema';
import { callListContent } from '../grammar/call-list';
import { writeToolResponses } from './hermes';
import { tag, triggeredTags } from '../grammar/structural-tag';
import type { ToolFormat } from './tool-format';

export const smollm2: ToolFormat = {
  name: 'smollm2',
  summary: '<tool_call>[{"name", "arguments"}, …]</tool_call>',
  example: '<tool_call>[{"name": "<tool name>", "arguments": {<arguments as JSON>}}]</tool_call>',
  argumentSyntax: 'json',
  describeTools(tools) {
    if (tools.length === 0) return '';
    const list = tools.map(toolEntry);
    return [
      'You are an expert in composing functions. You are given a question and a set of possible functions.',
      'Based on the question, you will need to make one or more function/tool calls to achieve the purpose.',
      'If none of the functions can be used, answer in plain text without any tag.',
      '',
      'You have access to the following tools:',
      `<tools>${pythonJson(list)}</tools>`,
      '',
      'To call tools, write them in this format:',
      '<tool_call>[',
      '{"name": "func_name1", "arguments": {"argument1": "value1", "argument2": "value2"}},',
      '... (more tool calls as required)',
      ']</tool_call>',
    ].join('\n');
  },
  grammar(step) {
    return triggeredTags(['<tool_call>'], [tag('<tool_call>', callListContent(step), '</tool_call>')], step.required);
  },
  writeTurn(text, calls) {
    if (calls.length === 0) return text;
    const list = calls.map((call) => pythonJson({ name: call.name, arguments: call.args ?? {} }));
    return [text, `<tool_call>[${list.join(', ')}]</tool_call>`].filter(Boolean).join('\n');
  },
  writeResults: writeToolResponses,
};
