/**
 * A token count without a tokenizer: used before a model is loaded and by the
 * scripted engine. BPE vocabularies average about four characters per token
 * for English and fewer for code, punctuation and non-Latin scripts, so we
 * count those more heavily and round up: trimming a little too much is
 * harmless, overflowing the window is not.
 */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  let ascii = 0;
  let symbols = 0;
  let wide = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code > 0x7f) wide += 1;
    else if (/[A-Za-z0-9 ]/.test(ch)) ascii += 1;
    else symbols += 1;
  }
  return Math.ceil(ascii / 4 + symbols / 2 + wide);
}
