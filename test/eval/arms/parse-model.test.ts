// A run's model from one string, as npm run eval and the runner page take it.
import { expect, test } from 'vitest';
import { armAgentOptions } from '../../../eval/arms/arm-agent-options';
import { armNamed } from '../../../eval/arms/arms';
import { modelFromParams, parseModel } from '../../../eval/arms/parse-model';

test('mechanics (in Gemma’s format unless named), a GGUF, or a web-llm id', () => {
  expect(parseModel('mechanics')).toEqual({ kind: 'mechanics', toolFormat: 'gemma-tool-code' });
  expect(parseModel('mechanics:hermes')).toEqual({ kind: 'mechanics', toolFormat: 'hermes' });
  expect(parseModel('/@fs/work/cache/gemma-3-270m-q4_k_m.gguf')).toEqual({
    kind: 'gguf',
    url: '/@fs/work/cache/gemma-3-270m-q4_k_m.gguf',
  });
  expect(parseModel('gguf:https://example.com/model?download=1')).toEqual({
    kind: 'gguf',
    url: 'https://example.com/model?download=1',
  });
  expect(parseModel('Qwen2.5-0.5B-Instruct-q4f32_1-MLC')).toEqual({
    kind: 'webllm',
    modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
  });
});

test('an unknown format or arm is refused with the names there are', () => {
  expect(() => parseModel('mechanics:nope')).toThrow(/not a tool-call format; use one of: hermes/);
  expect(armNamed('d').name).toBe('fenced-json');
  expect(() => armNamed('constructor')).toThrow(/No arm "constructor"; use one of ours/);
});

test('each arm runs a GGUF its own way: our engine with and without the grammar, wllama chat for the others', () => {
  const gguf = { kind: 'gguf' as const, url: '/m.gguf', threads: 1 };
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((letter) => armNamed(letter).modelFor(gguf));
  expect(a).toEqual({ engine: 'wllama', url: '/m.gguf', threads: 1 });
  expect(b).toEqual({ engine: 'wllama', url: '/m.gguf', threads: 1, grammar: false });
  const backend = { backend: { kind: 'wllama', url: '/m.gguf', threads: 1 } };
  expect(c).toMatchObject({ engine: 'module', url: expect.stringMatching(/native-tools-engine/), options: backend });
  expect(d).toMatchObject({ engine: 'module', url: expect.stringMatching(/fenced-json-engine/), options: backend });
});

test('ours-before runs the model as ours does, with the decision layer off', () => {
  const gguf = { kind: 'gguf' as const, url: '/m.gguf', threads: 2 };
  expect(armNamed('ours-before').modelFor(gguf)).toEqual(armNamed('ours').modelFor(gguf));
  expect(armAgentOptions('ours-before')).toEqual({ decisions: false });
  expect(armAgentOptions('ours')).toEqual({});
});

test("the runner page's model: a GGUF with the wllama options the URL gives, anything else as named", () => {
  expect(modelFromParams(new URLSearchParams('model=/m.gguf&threads=2&callsPerStep=any'))).toEqual({
    kind: 'gguf',
    url: '/m.gguf',
    threads: 2,
    callsPerStep: 'any',
  });
  expect(modelFromParams(new URLSearchParams('model=/m.gguf&callsPerStep=many'))).toEqual({
    kind: 'gguf',
    url: '/m.gguf',
  });
  expect(modelFromParams(new URLSearchParams())).toEqual({ kind: 'mechanics', toolFormat: 'gemma-tool-code' });
});
