/**
 * For models trained on no tool format (Phi-3.5, TinyLlama, OLMo-2,
 * stablelm-2): a compact tool list and one call per `<tool_call>` tag. The tag
 * is the trigger the grammar constrains, and the reader shares Hermes's.
 */
import { pythonJson } from './python-json';
import { describeTools } from '../tool-prompt';
import { jsonCallTags } from './hermes';
import { triggeredTags } from '../grammar/structural-tag';
import type { ToolFormat } from './tool-format';

export const genericJson: ToolFormat = {
  name: 'generic-json',
  summary: '<tool_call>{"name", "arguments"}</tool_call> (our own, for models without a tool format)',
  example: '<tool_call>{"name": "<tool name>", "arguments": {<arguments as JSON>}}</tool_call>',
  argumentSyntax: 'json',
  describeTools,
  grammar(step) {
    return triggeredTags(['<tool_call>'], jsonCallTags(step, '<tool_call>{"name": ', '}</tool_call>'), step.required);
  },
  writeTurn(text, calls) {
    const written = calls.map(
      (call) => `<tool_call>${pythonJson({ name: call.name, arguments: call.args ?? {} })}</tool_call>`,
    );
    return [text, ...written].filter(Boolean).join('\n');
  },
  writeResults(results) {
    return results
      .map(
        (result) => `<tool_response>${JSON.stringify({ name: result.name, content: result.content })}</tool_response>`,
      )
      .join('\n');
  },
};
