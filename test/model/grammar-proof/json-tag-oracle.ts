/**
 * What a grammar-constrained output holds, read independently of our
 * readers, for formats whose calls are JSON inside a begin and an end tag.
 * It may be naive because the grammar guarantees the shape: free text never
 * contains the begin tag, after it comes one JSON value, then the end tag.
 * If the text breaks that shape, the grammar let it through, and it says so.
 */
export interface ExpectedCall {
  name: string;
  args: unknown;
}

export interface Expected {
  calls: ExpectedCall[];
  /** The text ends inside a call (cut off by the token limit). */
  cut: boolean;
}

export function readJsonTags(
  text: string,
  tags: { begin: string; end: string; toCall: (value: unknown) => ExpectedCall },
): Expected {
  const calls: ExpectedCall[] = [];
  let at = 0;
  for (;;) {
    const begin = text.indexOf(tags.begin, at);
    if (begin === -1) return { calls, cut: false };
    const start = skipSpace(text, begin + tags.begin.length);
    if (start === text.length) return { calls, cut: true };
    const end = endOfJsonValue(text, start);
    if (end === -1) return { calls, cut: true };
    const body = text.slice(start, end);
    let value: unknown;
    try {
      value = parseJson(body);
    } catch (error) {
      throw new Error(`a call's body is not JSON (${(error as Error).message}): ${JSON.stringify(body)}`);
    }
    const close = skipSpace(text, end);
    if (text.startsWith(tags.end, close)) {
      calls.push(tags.toCall(value));
      at = close + tags.end.length;
    } else if (tags.end.startsWith(text.slice(close))) return { calls, cut: true };
    else
      throw new Error(`the grammar let through a call not closed by ${tags.end}: ${JSON.stringify(text.slice(begin))}`);
  }
}

/**
 * xgrammar's JSON strings admit raw control characters (a tab, a form feed…), which JSON.parse
 * refuses; such a character means itself, so it is escaped before parsing.
 */
function parseJson(body: string): unknown {
  return JSON.parse(
    body.replace(/"(?:[^"\\]|\\.)*"/gs, (string) =>
      string.replace(/[\u0000-\u001f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`),
    ),
  );
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at])) at++;
  return at;
}

/** Index just past the JSON value starting at `start`, or -1 when the text ends first. */
function endOfJsonValue(text: string, start: number): number {
  if (text[start] !== '{' && text[start] !== '[')
    throw new Error(`expected a JSON object at ${JSON.stringify(text.slice(start, start + 40))}`);
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (i >= text.length) return -1;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') if (--depth === 0) return i + 1;
  }
  return -1;
}
