/**
 * How the suite tolerates wording: a pattern is words that must all appear in
 * the text, each as a part of it ("milk" is in "Buy oat milk"), with `|`
 * between a word's alternatives ("2|two", "onion|onoin"). Case, punctuation
 * and spacing do not count, so "dry-cleaning" matches "dry cleaning".
 */
export type TextMatch = string;

/** Lower case, every run of characters that is not a letter or digit one space. */
const plain = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

export function matchesText(text: string, pattern: TextMatch): boolean {
  const haystack = ` ${plain(text)} `;
  return pattern
    .trim()
    .split(/\s+/)
    .every((word) => word.split('|').some((alternative) => haystack.includes(plain(alternative))));
}
