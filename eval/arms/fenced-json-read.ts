/**
 * How the AI SDK's in-browser providers read tool calls from a model's text
 * (@browser-ai/web-llm 2.1.7, parseJsonFunctionCalls), reproduced: every
 * ```tool_call (or ```tool-call) fence, <tool_call> tag, or `[name(a=1)]`,
 * left to right; a fence holds one JSON call, a list of them, or one per
 * line; `arguments` (or `parameters`) may be a JSON string. Pythonic
 * arguments stay strings. What they drop silently, a block that gives no
 * call or is never closed, is kept here as unreadable, so that the arms'
 * valid-call rates compare.
 */
import type { ModelCall } from '../bfcl/types';

export interface FencedCalls {
  calls: ModelCall[];
  /** The blocks that looked like calls but gave none. */
  unreadable: string[];
  /** The text around the blocks. */
  text: string;
}

const BLOCKS = /```tool[_-]?call\s*([\s\S]*?)```|<tool_call>\s*([\s\S]*?)\s*<\/tool_call>|\[(\w+)\(([^)]*)\)\]/gi;

export function readFencedCalls(output: string): FencedCalls {
  const calls: ModelCall[] = [];
  const unreadable: string[] = [];
  let text = output;
  for (const match of output.matchAll(BLOCKS)) {
    text = text.replace(match[0], '');
    if (match[3] !== undefined) {
      calls.push({ name: match[3], args: pythonicArguments(match[4] ?? '') });
      continue;
    }
    const body = (match[1] ?? match[2] ?? '').trim();
    if (!body) continue;
    const found = jsonCalls(body);
    if (found.length) calls.push(...found);
    else unreadable.push(match[0]);
  }
  // A block opened and never closed (output cut off) matches nothing: they see text, we an unreadable call.
  const open = OPENERS.exec(text);
  if (open) unreadable.push(text.slice(open.index));
  return { calls, unreadable, text: text.replace(/\n{2,}/g, '\n').trim() };
}

const OPENERS = /```tool[_-]?call|<tool_call>/i;

/** One JSON value (a call or a list of calls), or else one call per line. */
function jsonCalls(body: string): ModelCall[] {
  const whole = parse(body);
  if (whole !== undefined) return (Array.isArray(whole) ? whole : [whole]).flatMap(asCall);
  return body
    .split('\n')
    .filter((line) => line.trim())
    .flatMap((line) => asCall(parse(line.trim())));
}

function asCall(value: unknown): ModelCall[] {
  const call = value as { name?: unknown; arguments?: unknown; parameters?: unknown } | null;
  if (!call || typeof call !== 'object' || !call.name) return [];
  let args = call.arguments || call.parameters || {};
  if (typeof args === 'string') args = parse(args) ?? args;
  return [{ name: String(call.name), args }];
}

/** `a=1, b="x"`: split at commas, quotes taken off, every value a string. */
function pythonicArguments(source: string): Record<string, string> {
  const args: Record<string, string> = {};
  for (const pair of source.split(',').map((part) => part.trim())) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    let value = pair.slice(at + 1).trim();
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))
      value = value.slice(1, -1);
    args[pair.slice(0, at).trim()] = value;
  }
  return args;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
