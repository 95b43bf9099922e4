// The run's settings as a person sets them: the model, the arms, the categories, cases per category and
// the seed; what the form holds, as a plan the runner takes.
import { ARMS } from '../../eval/arms/arms';
import type { Arm, EvalModel } from '../../eval/arms/arm';
import { BFCL_CATEGORIES, type BfclCategory } from '../../eval/bfcl/categories';
import { ggufChoices, modelChoices } from '../models';

export interface Setup {
  model: EvalModel;
  arms: Arm[];
  categories: BfclCategory[];
  limit: number;
  seed: string;
  /** The most tokens a case's answer may take, in every arm. */
  maxTokens: number;
}

const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

const NOTES: Record<string, string> = {
  mechanics:
    'No model runs: each case’s answer is BFCL’s possible answer (some made wrong on purpose), written as each arm’s model would write it and read by that arm’s real reader. It checks the plumbing, not a model.',
  webllm: 'Runs in this tab on WebGPU; the model downloads once and stays in the browser’s cache.',
  gguf: 'Runs llama.cpp in this tab (wllama), on the CPU or WebGPU; a file from a URL downloads once and stays in the browser’s cache, one from your disk is read from it. Every arm runs on it.',
};

/** A GGUF chosen from the visitor's disk, at a blob: URL for the agent's worker to read. */
let ggufFile: { name: string; url: string } | undefined;

export function buildForm(): void {
  $('#webllm-ids').replaceChildren(
    ...modelChoices.map((choice) => Object.assign(document.createElement('option'), { value: choice.id })),
  );
  $('#gguf-urls').replaceChildren(
    ...ggufChoices.map((choice) =>
      Object.assign(document.createElement('option'), { value: choice.url, label: choice.label }),
    ),
  );
  $('#pinned-models').textContent = ggufChoices
    .map((choice) => `${choice.label}, ${choice.sizeMB} MB${choice.base ? ', a base model' : ''}`)
    .join('; ');
  $<HTMLInputElement>('#gguf-file').addEventListener('change', (event) => {
    const file = (event.target as HTMLInputElement).files?.[0];
    if (ggufFile) URL.revokeObjectURL(ggufFile.url);
    ggufFile = file && { name: file.name, url: URL.createObjectURL(file) };
    $('#gguf-file-name').textContent = file?.name ?? '';
    // One model: a file chosen replaces the URL typed, and the other way round.
    if (file) $<HTMLInputElement>('#gguf-url').value = '';
  });
  $('#gguf-url').addEventListener('input', () => {
    if (!ggufFile) return;
    URL.revokeObjectURL(ggufFile.url);
    ggufFile = undefined;
    $<HTMLInputElement>('#gguf-file').value = '';
    $('#gguf-file-name').textContent = '';
  });
  $('#arms').replaceChildren(
    ...Object.values(ARMS).map((arm, i) => checkbox('arm', arm.name, arm.label, i === 0 || arm.name === 'fenced-json')),
  );
  $('#categories').replaceChildren(
    ...BFCL_CATEGORIES.map((category) => checkbox('category', category, category, true)),
  );
  const kind = $<HTMLSelectElement>('#model-kind');
  const show = () => {
    $('#webllm-field').hidden = kind.value !== 'webllm';
    $('#gguf-field').hidden = kind.value !== 'gguf';
    $('#model-note').textContent = NOTES[kind.value] ?? '';
  };
  kind.addEventListener('change', show);
  show();
}

function checkbox(name: string, value: string, label: string, checked: boolean): HTMLLabelElement {
  const box = Object.assign(document.createElement('input'), { type: 'checkbox', name, value, checked });
  const wrapper = document.createElement('label');
  wrapper.append(box, ` ${label}`);
  return wrapper;
}

/** The settings, or what is missing. */
export function readForm(): Setup | { problem: string } {
  const kind = $<HTMLSelectElement>('#model-kind').value;
  let model: EvalModel;
  if (kind === 'webllm') {
    const modelId = $<HTMLInputElement>('#webllm-id').value.trim();
    if (!modelId) return { problem: 'Name a web-llm model id.' };
    model = { kind: 'webllm', modelId };
  } else if (kind === 'gguf') {
    const url = $<HTMLInputElement>('#gguf-url').value.trim();
    // The agent's worker reads a relative URL against its own script's, not this page's.
    if (url) {
      if (!URL.canParse(url, location.href)) return { problem: `${url} is not a URL.` };
      model = { kind: 'gguf', url: new URL(url, location.href).href };
    } else if (ggufFile) model = { kind: 'gguf', url: ggufFile.url, name: ggufFile.name };
    else return { problem: 'Give the URL of a GGUF file, or choose one from your disk.' };
  } else {
    model = { kind: 'mechanics', toolFormat: 'gemma-tool-code' };
  }
  const arms = checked('arm').map((name) => ARMS[name as keyof typeof ARMS]);
  const categories = checked('category') as BfclCategory[];
  const limit = Number($<HTMLInputElement>('#limit').value);
  if (!arms.length) return { problem: 'Pick at least one arm.' };
  if (!categories.length) return { problem: 'Pick at least one category.' };
  if (!Number.isInteger(limit) || limit < 1)
    return { problem: 'Cases per category must be a whole number, 1 or more.' };
  const maxTokens = Number($<HTMLInputElement>('#max-tokens').value);
  if (!Number.isInteger(maxTokens) || maxTokens < 16)
    return { problem: 'Tokens per answer must be a whole number, 16 or more.' };
  return { model, arms, categories, limit, seed: $<HTMLInputElement>('#seed').value.trim() || 'bfcl', maxTokens };
}

function checked(name: string): string[] {
  return [...document.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)].map((box) => box.value);
}
