/**
 * Which tool-call format a GGUF's model writes: `model.toolFormat` when the
 * page names one; else the family its name says (the same table web-llm ids
 * go through, tried on model.modelId, the GGUF's general.name and the file
 * name); else its architecture; else our generic JSON format.
 */
import { MODEL_FAMILIES } from './formats/registry';
import type { ToolFormatName } from './formats/tool-format';

/** llama.cpp's architecture names (general.architecture) and the format each family was trained on. */
const ARCHITECTURES: readonly [RegExp, ToolFormatName][] = [
  [/^gemma4/, 'gemma4'],
  [/^gemma/, 'gemma-tool-code'],
  [/^qwen3/, 'qwen3'],
  [/^qwen2/, 'hermes'],
  [/^phi3$/, 'generic-json'],
  [/^(mistral|ministral)/, 'mistral'],
];

export function formatOf(names: readonly (string | undefined)[], architecture?: string): ToolFormatName {
  for (const name of names) {
    if (!name) continue;
    // GGUF names spell families as "gemma-3-270m", "Qwen2.5 0.5B Instruct", "SmolLM2-360M…".
    const spelled = name.replace(/\s+/g, '-');
    const family = MODEL_FAMILIES.find(
      (entry) => entry.ids.test(spelled) || entry.ids.test(spelled.replace(/^gemma-(\d)/i, 'gemma$1')),
    );
    if (family) return family.format;
  }
  if (architecture) for (const [pattern, format] of ARCHITECTURES) if (pattern.test(architecture)) return format;
  return 'generic-json';
}

/** The file name of a model URL, without its extension and quantization, as a name to match. */
export function modelNameOf(url: string): string {
  const file = decodeURIComponent(new URL(url, 'http://x/').pathname.split('/').pop() ?? '');
  return file.replace(/\.gguf$/i, '').replace(/-\d{5}-of-\d{5}$/, '');
}
