/**
 * How the suite tolerates wording: a pattern is words that must all appear in
 * the text, each as a part of it ("milk" is in "Buy oat milk"), with `|`
 * between a word's alternatives ("2|two", "onion|onoin"). Case, punctuation
 * and spacing do not count, so "dry-cleaning" matches "dry cleaning". A number
 * ("1", "one") must stand as a word of its own, or with its ordinal ending ("May
 * 3rd" says "may 3"): "There are 10 things left" does not say "1", and "done"
 * does not say "one".
 */
export type TextMatch = string;

/** Lower case, every run of characters that is not a letter or digit one space. */
const plain = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const NUMBER_WORDS = new Set(
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(
    ' ',
  ),
);

const isNumber = (word: string) => /^\d+$/.test(word) || NUMBER_WORDS.has(word);

export function matchesText(text: string, pattern: TextMatch): boolean {
  const haystack = ` ${plain(text)} `;
  return pattern
    .trim()
    .split(/\s+/)
    .every((word) =>
      word.split('|').some((alternative) => {
        const wanted = plain(alternative);
        if (!isNumber(wanted)) return haystack.includes(wanted);
        return [' ', 'st ', 'nd ', 'rd ', 'th '].some((end) => haystack.includes(` ${wanted}${end}`));
      }),
    );
}
