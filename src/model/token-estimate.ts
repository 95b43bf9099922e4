/**
 * A token count without a tokenizer: used before a model is loaded and by the
 * scripted engine. BPE vocabularies average about four characters per token
 * for English and fewer for code, punctuation and non-Latin scripts, so we
 * count those more heavily and round up: trimming a little too much is
 * harmless, overflowing the window is not.
 */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  // One pass over UTF-16 code units, no regex: it runs over whole histories every step.
  let ascii = 0;
  let symbols = 0;
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) {
      // A surrogate pair is one character.
      if (code >= 0xdc00 && code <= 0xdfff && i > 0 && isHighSurrogate(text.charCodeAt(i - 1))) continue;
      wide += 1;
    } else if (isWordChar(code)) ascii += 1;
    else symbols += 1;
  }
  return Math.ceil(ascii / 4 + symbols / 2 + wide);
}

function isWordChar(code: number): boolean {
  return (
    code === 0x20 || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
