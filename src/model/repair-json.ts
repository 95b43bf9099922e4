/**
 * Lenient JSON for what small models write: trailing commas, single quotes,
 * Python literals (True/False/None), unquoted keys, and output that stopped
 * before its closing quotes and brackets. Strict JSON is tried first, so a
 * well-formed call is never "repaired" into something else.
 */
export type JsonParse = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

export function parseLenientJson(text: string): JsonParse {
  const source = text.trim();
  if (!source) return { ok: false, error: 'it is empty' };
  try {
    return { ok: true, value: JSON.parse(source), repaired: false };
  } catch (strictError) {
    const repaired = repairJson(source);
    try {
      return { ok: true, value: JSON.parse(repaired), repaired: true };
    } catch {
      return { ok: false, error: (strictError as Error).message };
    }
  }
}

/** Rewrites near-JSON into JSON; the result may still be invalid (the caller parses it). */
export function repairJson(source: string): string {
  let out = '';
  const closers: string[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '"' || ch === "'") {
      const { text, end } = readString(source, i);
      out += text;
      i = end;
      continue;
    }
    if (ch === '{') closers.push('}');
    else if (ch === '[') closers.push(']');
    else if (ch === '}' || ch === ']') {
      // A closer the model wrote: drop a trailing comma before it.
      out = out.replace(/,\s*$/, '');
      if (closers[closers.length - 1] === ch) closers.pop();
      else if (!closers.includes(ch)) {
        i += 1;
        continue; // a stray closer: skip it
      } else {
        while (closers.length && closers[closers.length - 1] !== ch) out += closers.pop();
        closers.pop();
      }
    } else if (/[A-Za-z_$]/.test(ch)) {
      const word = /^[A-Za-z_$][\w$-]*/.exec(source.slice(i))![0];
      const after = source.slice(i + word.length).trimStart();
      if (after.startsWith(':'))
        out += JSON.stringify(word); // an unquoted key
      else out += LITERALS[word] ?? word;
      i += word.length;
      continue;
    }
    out += ch;
    i += 1;
  }
  out = out.replace(/,\s*$/, '').replace(/:\s*$/, ': null');
  while (closers.length) out += closers.pop();
  return out;
}

const LITERALS: Record<string, string> = {
  True: 'true',
  False: 'false',
  None: 'null',
  true: 'true',
  false: 'false',
  null: 'null',
};

/** Reads a string quoted with " or ' from `start`; returns it double-quoted, closed even if the source stops inside it. */
function readString(source: string, start: number): { text: string; end: number } {
  const quote = source[start];
  let value = '';
  let i = start + 1;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '\\' && i + 1 < source.length) {
      const next = source[i + 1];
      // \' is not a JSON escape; a quote of the other kind needs none.
      if (next === "'") value += "'";
      else value += ch + next;
      i += 2;
      continue;
    }
    if (ch === quote) return { text: `"${value}"`, end: i + 1 };
    if (ch === '"') value += '\\"';
    else if (ch === '\n') value += '\\n';
    else value += ch;
    i += 1;
  }
  return { text: `"${value.replace(/\\$/, '')}"`, end: i };
}
