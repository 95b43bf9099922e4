/**
 * The one rule for a tool's name, applied wherever a tool enters an agent:
 * defineTool, fromMCPTool (and so WebMCP imports), registerTool, createAgent,
 * the extension bridge, and the worker. A model must be able to write the
 * name back exactly, and a person must see exactly what it is: ASCII
 * letters, digits, "_" and "-", starting with a letter or "_", at most 64
 * characters. No control, invisible or direction-changing character, no
 * look-alike letter, no path. And never a name that reaches a prototype
 * wherever names are keys (the keys plain-copy.ts drops from arguments).
 */
import { isForbiddenKey } from './plain-copy';

export const TOOL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/** Why `name` cannot name a tool, as the phrase after the name; undefined when it can. */
export function toolNameProblem(name: string): string | undefined {
  if (!TOOL_NAME_PATTERN.test(name))
    return 'is not allowed: a name starts with a letter or "_", holds only letters, digits, "_" and "-", and is at most 64 characters long (e.g. "add_todo")';
  if (isForbiddenKey(name))
    return 'is not allowed: "__proto__", "constructor" and "prototype" reach an object\'s prototype wherever names are keys; choose another name';
  return undefined;
}

/** A name as a message may show it: quoted, with every character outside printable ASCII escaped, so none can hide or turn the text. */
export function shownName(name: string): string {
  const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  return `"${shown.replace(/[^\x20-\x7E]|["\\]/g, (char) => (char === '"' || char === '\\' ? `\\${char}` : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;
}
