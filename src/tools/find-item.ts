/**
 * Which of a page's items a visitor means, from their own words: "milk" for
 * "Buy milk", "the dog one" for "Walk the dog", "the second one", "the last
 * one", "mlik" for "milk", and the visitor's whole request ("Mark the plumber
 * one as done."). A small model passes the visitor's words on as it got them
 * (or nearly), so a tool that takes them and matches loosely works
 * where one that wants an exact id or the exact text fails. When nothing or
 * more than one item fits, the result says so in words the model can answer
 * with ("which one: …?"), rather than guessing.
 *
 * Linear in the items and the words: each item's words are compared with
 * each of the visitor's few words, and a typo check costs the two words'
 * lengths.
 */

export interface FindItemOptions<T> {
  /** The text an item is known by (default: the item itself, as a string). */
  text?: (item: T) => string;
  /** What the items are called, for the message (default 'item'): "No to-do matches …". */
  noun?: string;
  /** More words that name no item in particular (the page's own nouns: 'todo', 'task', 'product'). */
  ignore?: readonly string[];
}

export type FoundItem<T> =
  | { found: true; item: T; index: number }
  /** `candidates`: the items that fit equally well (none when nothing fits); `message` says so for the model. */
  | { found: false; candidates: T[]; message: string };

/** Words that point at an item without naming it. */
const POINTING = new Set(
  'the a an one ones item items entry entries thing things that this those these my your our please called named about with number no nr'.split(
    ' ',
  ),
);

/**
 * The words a request is made of around the item it names ("mark … as done", "I'm done with …", "tick off …",
 * "remove … from my list", "garlic's done", "flour's bought": the tails of contractions too): they name nothing
 * unless an item holds them ("Mark's birthday").
 */
const ASKING = new Set(
  (
    'i im m s re ll ve d am is are was it its me us we can could would you please just now also mark marked tick ticked check checked cross crossed off done finish finished complete completed as with of to from in on at for get rid remove delete list todo todos ' +
    // How a visitor says a thing was done ("flour's bought", "Van's booked!", "the plumber's been called").
    'been has have had got bought paid booked called sent returned picked collected fetched'
  ).split(' '),
);

const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};

/** A word of the visitor's that picks an item by position: its index from the start (≥ 0) or the end (< 0). */
function position(word: string, next: string | undefined): number | undefined {
  if (word === 'last' || word === 'final') return -1;
  if (word === 'penultimate') return -2;
  if (ORDINALS[word] !== undefined)
    // "second last", "second to last"
    return next === 'last' || next === 'to' ? -ORDINALS[word]! : ORDINALS[word]! - 1;
  const numbered = /^#?(\d{1,4})(?:st|nd|rd|th)?$/.exec(word);
  if (numbered) return Number(numbered[1]) - 1;
  return undefined;
}

/** Lower case, accents and punctuation gone, split into words. */
function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}#]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

/** Edits (insert, delete, replace, swap two neighbours) from a to b, or Infinity once over `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return Infinity;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return Infinity;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** How well one of the visitor's words names one of the item's: 1 the same, less for a stem, a prefix or a typo, 0 not. */
function wordScore(said: string, known: string): number {
  if (said === known) return 1;
  const stem = (word: string) => word.replace(/(?:ies|es|s|ing|ed)$/, '');
  if (said.length > 3 && known.length > 3 && stem(said) === stem(known)) return 0.9;
  if (said.length >= 3 && known.startsWith(said)) return 0.8;
  // A word that ends a compound: "pot" of "teapot".
  if (said.length >= 3 && known.endsWith(said)) return 0.6;
  // Three letters are too few for a typo, but for two swapped ("dgo").
  if (said.length === 3) return [...said].sort().join('') === [...known].sort().join('') ? 0.7 : 0;
  if (said.length < 3) return 0;
  const allowed = said.length >= 8 ? 2 : 1;
  return editDistance(said, known, allowed) <= allowed ? 0.7 : 0;
}

/** How well the visitor's words name an item: the share of their words it holds, each as well as it holds it. */
function itemScore(said: readonly string[], known: readonly string[], whole: string, phrase: string): number {
  if (whole === phrase) return 2;
  let sum = 0;
  let matched = 0;
  let last = 0;
  for (const word of said) {
    let best = 0;
    for (const candidate of known) best = Math.max(best, wordScore(word, candidate));
    if (best > 0) matched++;
    sum += best;
    last = best;
  }
  // Most of what they said must be in it: "the red mug" is not "Blue mug"; and the thing they name, which English
  // says last, must be: "Buy a new teapot" is not "Buy a new kettle".
  if (matched * 2 <= said.length || last === 0) return 0;
  // The words in the same order, as a phrase, count a little more than the same words scattered.
  return sum / said.length + (` ${whole} `.includes(` ${phrase} `) ? 0.1 : 0);
}

export function findItem<T>(items: readonly T[], words: string, options: FindItemOptions<T> = {}): FoundItem<T> {
  const textOf = options.text ?? ((item: T) => String(item));
  const noun = options.noun ?? 'item';
  const ignore = new Set([...POINTING, ...(options.ignore ?? []).flatMap(wordsOf)]);
  const texts = items.map((item) => wordsOf(textOf(item)));
  const said = wordsOf(words);
  const held = new Set(texts.flat());
  const list = () => (items.length ? items.map(textOf).join(', ') : `no ${noun}s yet`);
  const none = (why: string): FoundItem<T> => ({
    found: false,
    candidates: [],
    message: `${why} The ${noun}s are: ${list()}.`,
  });

  // A word that picks by position ("second", "last", "3rd", "#2") picks among what the other words leave.
  let at: number | undefined;
  const naming: string[] = [];
  said.forEach((word, i) => {
    const picked = position(word, said[i + 1]);
    // A number that is a word of some item ("Room 101") names it rather than a position.
    const inText = /^\d+$/.test(word) && texts.some((known) => known.includes(word));
    if (picked !== undefined && at === undefined && !inText) at = picked;
    else if (ignore.has(word) || (ASKING.has(word) && !held.has(word))) return;
    else if (!(at !== undefined && (word === 'to' || word === 'last'))) naming.push(word);
  });

  let fitting = items.map((item, index) => ({ item, index, score: 1 }));
  if (naming.length) {
    const phrase = naming.join(' ');
    fitting = fitting
      .map((entry) => ({
        ...entry,
        score: itemScore(naming, texts[entry.index]!, texts[entry.index]!.join(' '), phrase),
      }))
      .filter((entry) => entry.score > 0);
    if (!fitting.length) return none(`No ${noun} matches "${words}".`);
  } else if (at === undefined) {
    return none(`"${words}" names no ${noun}.`);
  }
  if (at !== undefined) {
    const chosen = at < 0 ? fitting[fitting.length + at] : fitting[at];
    if (!chosen) return none(`There is no ${noun} at that place in the list ("${words}").`);
    return { found: true, item: chosen.item, index: chosen.index };
  }
  const best = Math.max(...fitting.map((entry) => entry.score));
  const top = fitting.filter((entry) => entry.score >= best - 1e-9);
  if (top.length === 1) return { found: true, item: top[0]!.item, index: top[0]!.index };
  return {
    found: false,
    candidates: top.map((entry) => entry.item),
    message: `"${words}" could be any of: ${top.map((entry) => textOf(entry.item)).join(', ')}. Ask which one.`,
  };
}
