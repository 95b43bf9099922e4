/**
 * The model families (src/model/families/): each record is complete, holds a
 * complete tool format (its prompt, its grammar, calls its readers read back)
 * and names a markup that exists, and is recognised by the models it stands for.
 */
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { FAMILIES, familyNamed, familyOfArchitecture, familyOfId } from '../../src/model/families';
import { MODEL_FAMILIES, TOOL_FORMATS, toolFormatFor } from '../../src/model/formats/registry';
import { planToolCalls } from '../../src/model/formats/tool-call-plan';
import { TOOL_FORMAT_NAMES } from '../../src/model/formats/tool-format-name';
import { addTodo } from './tools-fixture';
import { tokenizerFamily } from '../../src/model/token-estimate';
import { formatOf } from '../../src/model/engines/wllama/wllama-family';
import { chatTemplate, templateOf } from '../../src/model/engines/wllama/wllama-template';

const WEB_LLM_IDS = prebuiltAppConfig.model_list.map((model) => model.model_id);
/** Some of llama.cpp's architecture names (general.architecture). */
const ARCHITECTURES = ['gemma4', 'gemma3', 'qwen3', 'qwen2', 'phi3', 'mistral3', 'llama'];
const TOKENIZERS = ['qwen', 'llama3', 'gemma', 'generic'];

describe.each(FAMILIES.map((family) => ({ name: family.name, family })))('the family $name', ({ family }) => {
  it('has every field', () => {
    expect(family.name).toBeTruthy();
    expect(family.ids).toBeInstanceOf(RegExp);
    expect(family.templateTokens.length).toBeGreaterThan(0);
    expect(family.stops.length).toBeGreaterThan(0);
    expect(family.endOfTurn.length).toBeGreaterThan(0);
    expect(TOKENIZERS).toContain(family.tokenizer);
  });

  it('holds a complete tool format: its prompt, its grammar, and calls the readers read back', () => {
    const format = family.format;
    expect(TOOL_FORMATS[format.name]).toBe(format);
    expect(format.summary).toBeTruthy();
    expect(format.example).toBeTruthy();
    expect(format.argumentSyntax).toBeTruthy();
    expect(format.describeTools([addTodo])).toContain('add_todo');
    expect(format.grammar({ tools: [addTodo], required: false, relaxed: new Set() })).toHaveProperty('type');
    const call = { name: 'add_todo', args: { text: 'buy milk', due: 'friday' } };
    const output = planToolCalls(format, [addTodo]).read(format.writeTurn('', [call]), 'stop');
    expect(output.errors).toEqual([]);
    expect(output.calls.map(({ name, args }) => ({ name, args }))).toEqual([call]);
    expect(format.writeResults([{ callId: 'c1', name: 'add_todo', content: 'done' }])).toContain('done');
  });

  it('names a markup that exists', () => {
    expect(chatTemplate(family.markup).name).toBe(family.markup);
    for (const stop of family.stops) expect(chatTemplate(family.markup).stops).toContain(stop);
  });

  it("is the family of at least one of web-llm's models, and every lookup agrees on it", () => {
    const ids = WEB_LLM_IDS.filter((id) => familyOfId(id) === family);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      expect(familyNamed(id)).toBe(family);
      expect(toolFormatFor(id)).toBe(family.format);
      expect(formatOf([id])).toBe(family.format.name);
      expect(tokenizerFamily(id)).toBe(family.tokenizer);
    }
  });

  it('is recognised by its chat-template tokens and, where it has them, its architectures', () => {
    const template = family.templateTokens.join(' ');
    expect(templateOf({ 'tokenizer.chat_template': template })).toBe(family.markup);
    if (family.architectures) {
      const architecture = ARCHITECTURES.find((name) => familyOfArchitecture(name) === family);
      if (architecture === undefined) throw new Error(`${family.name}: no architecture of llama.cpp's is its`);
      expect(templateOf({ 'general.architecture': architecture })).toBe(family.markup);
      expect(formatOf([], architecture)).toBe(family.format.name);
    }
  });
});

it('keeps the old table of web-llm ids and formats, derived from the families', () => {
  expect(MODEL_FAMILIES.map((entry) => entry.family)).toEqual(FAMILIES.map((family) => family.name));
  expect(MODEL_FAMILIES.map((entry) => entry.format)).toEqual(FAMILIES.map((family) => family.format.name));
});

it("lists every format by a name of ToolFormatName, each name once: the families' formats and the generic one", () => {
  const formats = [...new Set([...FAMILIES.map((family) => family.format), TOOL_FORMATS['generic-json']])];
  const names = formats.map((format) => format.name);
  // Two formats of one name would leave one of them out of TOOL_FORMATS.
  expect(new Set(names).size, `formats that share a name: ${names.join(', ')}`).toBe(formats.length);
  // A name of TOOL_FORMAT_NAMES (the ToolFormatName union) that no family's format has is a dead name.
  expect(Object.keys(TOOL_FORMATS), "TOOL_FORMAT_NAMES and the families' formats differ").toEqual([
    ...TOOL_FORMAT_NAMES,
  ]);
});

describe('a model of no family', () => {
  it('writes the generic JSON format in ChatML, with the mean of the tokenizers', () => {
    expect(familyNamed('OLMo-2-0425-1B-Instruct-q4f16_1-MLC')).toBeUndefined();
    expect(toolFormatFor('OLMo-2-0425-1B-Instruct-q4f16_1-MLC').name).toBe('generic-json');
    expect(formatOf(['stories15M'], 'llama')).toBe('generic-json');
    expect(templateOf({ 'general.architecture': 'llama' })).toBe('chatml');
    expect(tokenizerFamily('OLMo-2-0425-1B-Instruct-q4f16_1-MLC')).toBe('generic');
  });
});
