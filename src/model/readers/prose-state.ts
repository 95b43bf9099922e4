/**
 * Where the model's prose stands at a point of its output, for the markup
 * that starts there: inside an inline code span (`…`), where a model quotes a
 * call to explain its syntax, or inside a tag it left unclosed (`<tool_c …`),
 * where JSON that looks like a call is a broken tag's body. Neither runs
 * (read-model-output.ts). Kept as the prose goes by, one character at a time,
 * so that the stream can carry it across what it has shown already.
 */
export interface ProseState {
  /** The length of the backtick run that opened the inline code span we are in; 0: none. */
  codeTicks: number;
  /** A `<` that starts a tag name was seen and no `>` since, on this line. */
  tagOpen: boolean;
}

export const PROSE_START: ProseState = { codeTicks: 0, tagOpen: false };

export function proseAfter(state: ProseState, text: string): ProseState {
  let { codeTicks, tagOpen } = state;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '`') {
      let run = 1;
      while (text[i + run] === '`') run++;
      i += run - 1;
      // Three or more: a fence, which no inline span crosses.
      if (run >= 3) codeTicks = 0;
      else if (codeTicks === 0) codeTicks = run;
      else if (codeTicks === run) codeTicks = 0;
    } else if (ch === '<' && /[A-Za-z_/]/.test(text[i + 1] ?? '')) tagOpen = true;
    else if (ch === '>' || ch === '\n') tagOpen = false;
  }
  return { codeTicks, tagOpen };
}

/**
 * Where the inline code span open at `from` closes: the next run of exactly
 * `ticks` backticks, or -1 (then the opening run was a literal backtick).
 */
export function codeSpanEnd(text: string, from: number, ticks: number): number {
  for (let i = text.indexOf('`', from); i !== -1; i = text.indexOf('`', i)) {
    let run = 1;
    while (text[i + run] === '`') run++;
    if (run === ticks) return i;
    i += run;
  }
  return -1;
}
