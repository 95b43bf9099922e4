/**
 * Values a prompt shows that the model did not write, escaped as its text is
 * (escape.ts): a past call written back from its parts (its name, id and
 * arguments, which a template writes with `tojson` and a format with
 * JSON.stringify, neither of which breaks a marker), and the tools as the
 * prompt describes them (an MCP server's or a WebMCP form's description, and
 * every string of a parameter schema, are the server's or the page's words).
 * Only what is shown is escaped: the grammar and the checks of a call's
 * arguments keep the tool's own schema.
 */
import type { ToolDeclaration } from '../tools/declaration';
import type { ModelToolCall } from './engine';
import type { Escape } from './escape';

/** Every string of a JSON value, keys included, escaped. */
export function escapeValue(value: unknown, escape: Escape): unknown {
  if (typeof value === 'string') return escape(value);
  if (Array.isArray(value)) return value.map((item) => escapeValue(item, escape));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [escape(key), escapeValue(item, escape)]));
  return value;
}

/** A past call as a prompt writes it back: its name, id and arguments escaped. */
export function escapeCall(call: ModelToolCall, escape: Escape): ModelToolCall {
  return {
    ...(call.id !== undefined && { id: escape(call.id) }),
    name: escape(call.name),
    args: escapeValue(call.args ?? {}, escape),
  };
}

/** Each escaper's shown copy of each tool: the run's tools are the same every step, and each step writes them. */
const shown = new WeakMap<Escape, WeakMap<ToolDeclaration, ToolDeclaration>>();

/** The tools as the prompt describes them: description, when-to-use and parameter schema escaped. */
export function shownTools(tools: readonly ToolDeclaration[], escape: Escape): ToolDeclaration[] {
  let copies = shown.get(escape);
  if (!copies) shown.set(escape, (copies = new WeakMap()));
  return tools.map((tool) => {
    let copy = copies.get(tool);
    if (!copy)
      copies.set(
        tool,
        (copy = {
          ...tool,
          description: escape(tool.description),
          ...(tool.whenToUse !== undefined && { whenToUse: escape(tool.whenToUse) }),
          parameters: escapeValue(tool.parameters, escape) as ToolDeclaration['parameters'],
        }),
      );
    return copy;
  });
}
