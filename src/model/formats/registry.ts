/**
 * Which format a model writes, from its web-llm id (its family's: families/),
 * and every format by name for `model.toolFormat`. The formats are the
 * families' own (each family record holds its format) and the generic JSON
 * format of a model of no family: a new family, even with a new format, is
 * its files and its line in FAMILIES, never an edit here.
 */
import { AgentError } from '../../errors';
import { FAMILIES } from '../families';
import { genericJson } from './generic-json';
import type { ToolFormat, ToolFormatName } from './tool-format';
import { TOOL_FORMAT_NAMES } from './tool-format-name';

const byName = new Map<string, ToolFormat>(
  [...FAMILIES.map((family) => family.format), genericJson].map((format) => [format.name, format]),
);

/** Every format by name, in TOOL_FORMAT_NAMES's order (the order messages list them in). */
export const TOOL_FORMATS = Object.fromEntries(
  TOOL_FORMAT_NAMES.flatMap((name) => {
    const format = byName.get(name);
    return format ? [[name, format]] : [];
  }),
) as Readonly<Record<ToolFormatName, ToolFormat>>;

/** Model ids (as web-llm names them) and the format each family was trained on; the first match wins (families/index.ts). */
export const MODEL_FAMILIES: readonly { ids: RegExp; format: ToolFormatName; family: string }[] = FAMILIES.map(
  (family) => ({ ids: family.ids, format: family.format.name, family: family.name }),
);

/** The format for a model id: its family's, or `override` when the page names one. */
export function toolFormatFor(modelId: string, override?: string): ToolFormat {
  if (override !== undefined) return toolFormatNamed(override);
  return FAMILIES.find((family) => family.ids.test(modelId))?.format ?? genericJson;
}

export function toolFormatNamed(name: string): ToolFormat {
  const format = (TOOL_FORMATS as Record<string, ToolFormat | undefined>)[name];
  if (!format || !Object.hasOwn(TOOL_FORMATS, name))
    throw new AgentError(
      'invalid-options',
      `model.toolFormat "${name}" is not a tool-call format; use one of: ${Object.keys(TOOL_FORMATS).join(', ')}.`,
    );
  return format;
}
