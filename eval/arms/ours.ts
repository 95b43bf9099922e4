/**
 * Arms `ours`, `ours-before` and `ours-no-grammar`: our runtime as a page gets
 * it, the family's prompt and reader, with and without the grammar that
 * constrains decoding; `ours-before` is `ours` with the loop before the
 * decision layer (its agent options, arm-agent-options.ts, differ; its model
 * does not). On the mechanics check all are the scripted engine replaying the
 * answer written in the family's format (it has no grammar to switch off).
 *
 * - GGUF: the wllama engine, with `grammar: false` for the second arm.
 * - web-llm: `ours` runs as is; `ours-no-grammar` needs a way to turn web-llm's
 *   grammar off (src/model/engines/webllm/webllm-request.ts has 'structural-tag' or 'json' only).
 */
import { toolFormatNamed } from '../../src/model/formats/registry';
import type { Arm, EvalModel, ScriptedAnswer } from './arm';
import { cutOff } from './cut-off';

export const ours: Arm = {
  name: 'ours',
  label: 'ours (format + grammar)',
  modelFor(model, script) {
    if (model.kind === 'mechanics') return scripted(model, script);
    if (model.kind === 'webllm')
      return { engine: 'webllm', modelId: model.modelId, nativeToolCalls: false, toolFormat: model.toolFormat };
    return gguf(model);
  },
};

export const oursBefore: Arm = {
  ...ours,
  name: 'ours-before',
  label: 'ours, the loop before the decision layer',
};

export const oursToolsThatFit: Arm = {
  ...ours,
  name: 'ours-tools-that-fit',
  label: 'ours, only the tools that fit offered to a call',
};

export const oursGivenValues: Arm = {
  ...ours,
  name: 'ours-given-values',
  label: 'ours, a value only some tools take held to a call of them',
};

export const oursWithoutGrammar: Arm = {
  name: 'ours-no-grammar',
  label: 'ours, no grammar (prompt + reader)',
  modelFor(model, script) {
    if (model.kind === 'mechanics') return scripted(model, script);
    if (model.kind === 'webllm')
      return { unavailable: "web-llm's engine has no switch to decode without our grammar yet" };
    return { ...gguf(model), grammar: false };
  },
};

function gguf(model: Extract<EvalModel, { kind: 'gguf' }>) {
  return {
    engine: 'wllama' as const,
    url: model.url,
    ...(model.toolFormat && { toolFormat: model.toolFormat }),
    ...(model.callsPerStep && { callsPerStep: model.callsPerStep }),
    ...(model.threads && { threads: model.threads }),
  };
}

function scripted(model: Extract<EvalModel, { kind: 'mechanics' }>, script: ScriptedAnswer | undefined) {
  if (!script) throw new Error('The mechanics check needs each case’s scripted answer.');
  const format = toolFormatNamed(model.toolFormat);
  const written = format.writeTurn(script.text, script.calls);
  const raw = script.cut ? cutOff(written, format.writeTurn(script.text, script.calls.slice(0, 1))) : written;
  return {
    engine: 'scripted' as const,
    turns: [{ raw }],
    toolFormat: model.toolFormat,
  };
}
