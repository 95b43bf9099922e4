/**
 * Streams a model's text to the person while holding back anything that may
 * be a tool call. Text before the first call marker flows as it is decoded;
 * from the marker on, the output is kept and parsed once the model stops.
 * A marker split across chunks (`<tool` … `_call>`) is held until it is
 * clear whether it is one.
 */
import { parseToolCalls, type ParsedToolCalls } from './parse-tool-calls';

const MARKERS = ['<tool_call>', '<|python_tag|>', '[TOOL_CALLS]', '<function=', '```'];

export class ToolCallStream {
  private output = '';
  private shown = 0;
  private holding = false;
  /** Something other than whitespace has been shown, so the answer is not bare JSON. */
  private textShown = false;

  constructor(private readonly toolNames?: readonly string[]) {}

  /** Adds decoded text; returns the part that can be shown now. */
  push(chunk: string): string {
    this.output += chunk;
    if (this.holding) return '';
    const rest = this.output.slice(this.shown);
    // An answer that opens with JSON is a bare call, or our grammar's {"answer": …}: hold it all.
    if (!this.textShown && /^\s*[[{]/.test(this.output)) {
      this.holding = true;
      return '';
    }
    let cut = rest.length;
    for (const marker of MARKERS) {
      const at = rest.indexOf(marker);
      if (at !== -1 && at < cut) {
        cut = at;
        this.holding = true;
      }
    }
    if (!this.holding) cut = rest.length - partialMarkerLength(rest);
    this.shown += cut;
    const visible = rest.slice(0, cut);
    if (visible.trim()) this.textShown = true;
    return visible;
  }

  /** The model stopped: parses what was held back. `text` is only the part not shown yet. */
  end(): ParsedToolCalls {
    const shownText = this.output.slice(0, this.shown);
    const parsed = parseToolCalls(this.output.slice(this.shown), { toolNames: this.toolNames });
    if (parsed.text && shownText && !/\s$/.test(shownText)) parsed.text = `\n${parsed.text}`;
    return parsed;
  }

  /** Everything the model wrote, markup included. */
  get raw(): string {
    return this.output;
  }
}

/** Length of the longest suffix of `text` that begins a marker. */
function partialMarkerLength(text: string): number {
  let longest = 0;
  for (const marker of MARKERS) {
    for (let n = Math.min(marker.length - 1, text.length); n > longest; n--) {
      if (text.endsWith(marker.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}
