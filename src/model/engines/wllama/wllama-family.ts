/**
 * Which tool-call format a GGUF's model writes: `model.toolFormat` when the
 * page names one; else the family its name says (the same table web-llm ids
 * go through (families/), tried on model.modelId, the GGUF's general.name and the file
 * name); else its architecture; else our generic JSON format.
 */
import { familyNamed, familyOfArchitecture } from '../../families';
import type { ToolFormatName } from '../../formats/tool-format';

export function formatOf(names: readonly (string | undefined)[], architecture?: string): ToolFormatName {
  for (const name of names) {
    const family = name ? familyNamed(name) : undefined;
    if (family) return family.format.name;
  }
  return (architecture && familyOfArchitecture(architecture)?.format.name) || 'generic-json';
}

/** The file name of a model URL, without its extension and quantization, as a name to match. */
export function modelNameOf(url: string): string {
  const file = decodeURIComponent(new URL(url, 'http://x/').pathname.split('/').pop() ?? '');
  return file.replace(/\.gguf$/i, '').replace(/-\d{5}-of-\d{5}$/, '');
}
