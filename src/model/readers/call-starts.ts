/**
 * Finds, in the output a stream holds back, the moments a call's tool name has
 * been written: a page can show "add_todo…" while the model still writes the
 * arguments, instead of nothing until the call is read at the end.
 *
 * Only the step's own tool names count, each as a whole name followed by what
 * follows a name in some family's markup: `"` (JSON's "name": "add_todo"),
 * `(` (a pythonic call), `>` (Qwen's <function=add_todo>), `{` (Gemma 4's
 * call:add_todo{) or `[` (Mistral's add_todo[ARGS]). A start is a hint for a
 * display, never a call: the reader at the end decides what runs, and a name
 * that turns up inside arguments (rare) only shows a card that the recorded
 * calls replace.
 *
 * Linear in the output: each chunk is scanned once with the few characters
 * kept from the previous one, which cannot hold more than a name and its
 * follower.
 */
export class CallStarts {
  private readonly pattern: RegExp | undefined;
  /** The end of the last chunk, where a name may still be completing. */
  private carry = '';
  private readonly keep: number;

  constructor(names: readonly string[]) {
    const usable = names.filter((name) => name.length > 0);
    this.keep = Math.max(0, ...usable.map((name) => name.length)) + 16;
    this.pattern = usable.length
      ? new RegExp(
          `(?<![\\w.-])(${[...usable]
            .sort((a, b) => b.length - a.length)
            .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('|')})(?![\\w.-])(?=\\s*["(>{\\[])`,
          'g',
        )
      : undefined;
  }

  /** The tool names whose call starts in `chunk` (after what came before), in order. */
  push(chunk: string): string[] {
    if (!this.pattern) return [];
    const text = this.carry + chunk;
    const names: string[] = [];
    let after = 0;
    this.pattern.lastIndex = 0;
    for (let match = this.pattern.exec(text); match; match = this.pattern.exec(text)) {
      names.push(match[1]!);
      after = match.index + match[0].length;
    }
    this.carry = text.slice(Math.max(after, text.length - this.keep));
    return names;
  }
}
