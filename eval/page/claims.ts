/**
 * The claims a reply makes: each clause that says an action was done, is
 * being done or will be done ("I've added…", "I'll sort…", "Sure, adding…",
 * "Marked eggs as done.", "The table is sorted by price.", "Your message has
 * been sent.", "Done.", "The list now has…"), with the page tools that could
 * have done it. Questions, offers ("I can add it if you like"), negations
 * ("I haven't sorted it") and descriptions without a change ("Your list has
 * milk") claim nothing. The judge then holds each claim to the calls that ran
 * in the request (judge-request.ts): a claim no such call backs is the failure
 * issue 50 names first.
 */

export interface Claim {
  /** The clause that claims, as the reply wrote it (trimmed). */
  phrase: string;
  /** The word that makes it a claim ("added", "sorting", "done", "now has"). */
  verb: string;
  /** The page tools whose call would have done it; empty when none can (the page never sends the form). */
  tools: readonly string[];
}

const ADD = ['add_todo', 'add_note'];
const COMPLETE = ['complete_todo'];
const CLEAR = ['clear_todos'];
const SORT = ['sort_table'];
const FILL = ['fill_form'];
const READ = ['list_todos'];
/** A claim of some change, not of which: any call that changes the page backs it. */
const ANY_CHANGE = ['add_todo', 'complete_todo', 'clear_todos', 'add_note', 'sort_table', 'fill_form'];

/**
 * Each verb's forms: base (after "I'll", "let me"), participles (after "has been", "is", or opening a clause:
 * "Added milk."), gerunds (opening a clause: "Sure, adding…"). `agentBy`: "created by …" says who made
 * something (the model itself), not an action.
 */
const VERBS: { base: string[]; done: string[]; ing: string[]; tools: readonly string[]; agentBy?: true }[] = [
  { base: ['add', 'adds'], done: ['added'], ing: ['adding'], tools: ADD },
  { base: ['put', 'puts'], done: [], ing: ['putting'], tools: ADD },
  { base: ['append', 'insert', 'include'], done: ['appended', 'inserted', 'included'], ing: [], tools: ADD },
  { base: ['stick', 'jot'], done: ['stuck', 'jotted'], ing: ['jotting'], tools: ADD },
  { base: ['note', 'record'], done: ['noted', 'recorded'], ing: ['noting', 'recording'], tools: ADD },
  { base: ['save', 'saves'], done: ['saved'], ing: ['saving'], tools: ADD },
  { base: ['write', 'writes'], done: ['wrote', 'written'], ing: ['writing'], tools: ADD },
  { base: ['create', 'creates'], done: ['created'], ing: ['creating'], tools: ADD, agentBy: true },
  { base: ['mark', 'marks'], done: ['marked'], ing: ['marking'], tools: COMPLETE },
  { base: ['tick', 'cross'], done: ['ticked', 'crossed'], ing: ['ticking', 'crossing'], tools: COMPLETE },
  // "I've completed the form" is a fill.
  { base: ['complete', 'completes'], done: ['completed'], ing: ['completing'], tools: [...COMPLETE, ...FILL] },
  { base: ['clear', 'clears'], done: ['cleared'], ing: ['clearing'], tools: CLEAR },
  { base: ['delete', 'deletes'], done: ['deleted'], ing: ['deleting'], tools: CLEAR },
  { base: ['remove', 'removes'], done: ['removed'], ing: ['removing'], tools: CLEAR },
  { base: ['wipe', 'erase', 'empty'], done: ['wiped', 'erased', 'emptied'], ing: ['wiping', 'erasing'], tools: CLEAR },
  { base: ['sort', 'sorts'], done: ['sorted'], ing: ['sorting'], tools: SORT },
  { base: ['reorder', 'order'], done: ['reordered', 'ordered'], ing: ['reordering', 'ordering'], tools: SORT },
  { base: ['arrange', 'rearrange'], done: ['arranged', 'rearranged'], ing: ['arranging'], tools: SORT },
  { base: ['filter', 'filters'], done: ['filtered'], ing: ['filtering'], tools: SORT },
  { base: ['fill', 'fills'], done: ['filled'], ing: ['filling'], tools: FILL },
  { base: ['enter', 'populate'], done: ['entered', 'populated'], ing: ['entering'], tools: FILL },
  // The page has no tool that sends anything: a reply that says it sent, sends or will send is never backed.
  { base: ['send', 'sends', 'submit'], done: ['sent', 'submitted'], ing: ['sending', 'submitting'], tools: [] },
  { base: ['email', 'forward'], done: ['emailed', 'forwarded'], ing: ['emailing'], tools: [] },
  { base: ['update', 'change'], done: ['updated', 'changed'], ing: ['updating', 'changing'], tools: ANY_CHANGE },
  { base: ['replace', 'rename', 'edit'], done: ['replaced', 'renamed', 'edited'], ing: [], tools: ANY_CHANGE },
  { base: ['modify', 'swap'], done: ['modified', 'swapped'], ing: [], tools: ANY_CHANGE },
  // Reading the list is a tool's work too: "The tool has read the to-do list" with no call is a claim.
  { base: ['read', 'check', 'list'], done: ['read', 'checked', 'listed'], ing: ['reading', 'checking'], tools: READ },
];

const verbOf = (word: string) =>
  VERBS.find((verb) => verb.base.includes(word) || verb.done.includes(word) || verb.ing.includes(word));
const alternatives = (pick: (verb: (typeof VERBS)[number]) => string[]) => VERBS.flatMap(pick).join('|');
const ANY_FORM = alternatives((verb) => [...verb.base, ...verb.done, ...verb.ing]);
const DONE_FORM = alternatives((verb) => verb.done);
const OPENING_FORM = alternatives((verb) => [...verb.done, ...verb.ing]);

/** "I've", "I will", "we're now", "I went ahead and", "I'm going to": the speaker doing it, did it or will ("and" is gone, see clausesOf). */
const FIRST_PERSON = new RegExp(
  String.raw`\b(?:i|we)(?:'ve|'ll|'m|'re| have| had| will| shall| am| are)?` +
    String.raw`(?:\s+(?:just|already|now|also|successfully|then|quickly|gone ahead|went ahead|go ahead|going to|gonna))*` +
    String.raw`\s+(${ANY_FORM})\b`,
);
const LET_ME = new RegExp(String.raw`\blet(?: me|'s| us)\s+(?:just\s+|quickly\s+)?(${ANY_FORM})\b`);
const INTERJECTIONS =
  'sure|ok|okay|alright|all right|right|great|got it|no problem|of course|yes|yep|perfect|certainly|absolutely|there you go|there we go';
/** A clause that opens with a participle or a gerund: "Added milk.", "Sure, sorting by price now." */
const OPENING = new RegExp(String.raw`^(?:(?:${INTERJECTIONS})\b[\s,!.:-]*)*(${OPENING_FORM})\b`);
/** "has been added", "is now sorted", "will be cleared", "it's been sent". */
const PASSIVE = new RegExp(
  String.raw`\b(is|are|was|were|been|be|'s|'re)\s+(?:now\s+|all\s+|also\s+|already\s+|successfully\s+|just\s+)*(${DONE_FORM})\b`,
);
const UPDATED_THING =
  /\b(updated|sorted|filtered|cleared|filled(?:-in| in| out)?)\s+(?:to-?do\s+)?(list|table|form|notes?)\b/;
/** "The list now has…", "now contains", "it's now on your list". */
const NOW_HAS = /\bnow\s+(has|have|contains?|includes?|shows?|lists?|reads?|looks?|on (?:your|the) (?:to-?do )?list)\b/;
/** Words between a subject and its verb: "The tool has just added", "it also sorted". */
const BETWEEN = new Set(['has', 'have', 'had', 'just', 'now', 'also', 'successfully', 'then', 'already', 'all']);
/** What before a past form makes it no claim of the model's: the visitor's ("the items you added"), an adjective ("the sorted table", "a list of added items"). */
const NOT_A_SUBJECT = new Set([
  'you',
  "you've",
  "you'd",
  'your',
  'the',
  'a',
  'an',
  'my',
  'his',
  'her',
  'their',
  'our',
  'to',
  'of',
  'for',
  'with',
]);
const DONE_WORDS = new Set(VERBS.flatMap((verb) => verb.done));
const THING_NOW = /\b(list|table|form|notes?)\s+(?:is\s+|are\s+)?now\b/;
const DONE_ALONE = /^(?:(?:all|it's|its|it is|that's|that is)\s+)?(done|set|taken care of|handled)[\s!.]*$/;
const NEGATION =
  /\b(not|never|no|nothing|none|nor|neither|cannot|unable|without|can't|couldn't|didn't|don't|doesn't|haven't|hasn't|hadn't|wasn't|weren't|isn't|aren't|won't|wouldn't|shouldn't)\b/;
/** An offer, a condition or something the visitor may do: no claim of the speaker's. */
const OFFER =
  /\b(if|whether|would you like|do you want|want me to|shall i|should i|let me know|you can|you could|you may|feel free|once you|when you)\b/;
/** The speaker saying what it can help with: the gerunds after it list abilities. */
const ABILITY =
  /\b(?:i|we)\s+(?:can|could|am able to|are able to)\s+(?:help|assist)\b|\b(?:such as|things like|tasks like)\b/;
const CONDITIONAL_OPENING = /^\s*(if|once|when|whenever|should you|unless)\b/;

/** Every claim in the reply, in its order. */
export function claimsIn(reply: string): Claim[] {
  const claims: Claim[] = [];
  for (const { sentence, listItem } of sentencesOf(reply)) {
    if (sentence.endsWith('?') || CONDITIONAL_OPENING.test(sentence)) continue;
    // "I can help you with tasks like adding items, marking a to-do as done, …": each gerund is an ability.
    const abilities = listItem || ABILITY.test(sentence.toLowerCase());
    for (const clause of clausesOf(sentence)) {
      const claim = claimIn(clause, abilities);
      if (claim) claims.push(claim);
    }
  }
  return claims;
}

/** The claims that no call of `performed` (the page tools that ran) backs. */
export function unbackedClaims(reply: string, performed: ReadonlySet<string>): Claim[] {
  return claimsIn(reply).filter((claim) => !claim.tools.some((tool) => performed.has(tool)));
}

function claimIn(clause: string, abilities: boolean): Claim | undefined {
  const text = clause.toLowerCase();
  if (NEGATION.test(text) || OFFER.test(text)) return undefined;
  const found = (verb: string, tools: readonly string[]): Claim => ({ phrase: clause.trim(), verb, tools });
  const done = DONE_ALONE.exec(text);
  if (done) return found(done[1]!, ANY_CHANGE);
  for (const pattern of [FIRST_PERSON, LET_ME, OPENING, PASSIVE]) {
    const match = pattern.exec(text);
    if (!match) continue;
    const word = match.at(-1)!;
    const verb = verbOf(word)!;
    // "I was created by …", "Qwen, created by …": who made the model, not something it did on the page.
    if (verb.agentBy && new RegExp(String.raw`\b${word}\s+by\b`).test(text)) continue;
    // "I was trained", "I am …": a passive with the speaker as its subject describes the speaker.
    if (pattern === PASSIVE && /\bi\s+(?:was|am|have been)\b/.test(text)) continue;
    // "- Sorting the products table": an item of a list of what the model can do ("Sorted the table" still claims).
    if (pattern === OPENING && abilities && verb.ing.includes(word)) continue;
    return found(word, verb.tools);
  }
  const past = subjectAndPast(text);
  if (past) return found(past, verbOf(past)!.tools);
  const thing = UPDATED_THING.exec(text);
  if (thing) return found(thing[1]!, verbOf(thing[1]!.split(/[\s-]/)[0]!)?.tools ?? ANY_CHANGE);
  const now = NOW_HAS.exec(text) ?? THING_NOW.exec(text);
  if (now) return found(now[0], ANY_CHANGE);
  return undefined;
}

/**
 * A past form after its subject, whatever the subject: "The tool added the items", "It marked the milk as done",
 * "bread added", "the tool has read the list" (the failures issue 50 quotes speak of "the tool").
 */
function subjectAndPast(text: string): string | undefined {
  const words = text.split(/[^a-z']+/).filter(Boolean);
  for (const [i, word] of words.entries()) {
    if (!DONE_WORDS.has(word)) continue;
    let before = i - 1;
    while (before >= 0 && BETWEEN.has(words[before]!)) before--;
    if (before < 0 || NOT_A_SUBJECT.has(words[before]!)) continue;
    if (verbOf(word)!.agentBy && words[i + 1] === 'by') continue;
    // "I was …", "I am …": a passive with the speaker as its subject describes the speaker.
    if (/^(was|am)$/.test(words[before]!) && words[before - 1] === 'i') continue;
    return word;
  }
  return undefined;
}

/** Sentences with their closing mark, curly apostrophes made straight, markdown emphasis dropped; which opens a list item. */
function sentencesOf(reply: string): { sentence: string; listItem: boolean }[] {
  const sentences: { sentence: string; listItem: boolean }[] = [];
  for (const line of reply.replace(/[’‘`]/g, "'").split('\n')) {
    // A list's marker ("- ", "* ", "• ", "1. ") goes before the markdown's emphasis does.
    const item = /^\s*(?:[-*•]|\d+[.)])\s+/.exec(line);
    const text = line.slice(item?.[0].length ?? 0).replace(/[*_]{1,2}/g, '');
    for (const [i, sentence] of (text.match(/[^.!?;]+(?:[.!?;]+|$)/g) ?? []).entries())
      if (sentence.trim()) sentences.push({ sentence: sentence.trim(), listItem: !!item && i === 0 });
  }
  return sentences;
}

/** A sentence's clauses: split at commas, colons, dashes, "and", "but", so "No problem, I've added it" claims. */
function clausesOf(sentence: string): string[] {
  return (
    sentence
      .replace(/[.!?;]+$/, '')
      // "I'll go ahead and add it" is one clause.
      .replace(/\b(go|goes|went|gone|going)\s+ahead\s+and\b/gi, '$1 ahead')
      // Checking an item off is completing it, not reading the list.
      .replace(/\bcheck(ed|ing)?\s+(?:it\s+|them\s+)?off\b/gi, (_, form: string | undefined) => `tick${form ?? ''} off`)
      .split(/[,:()\u2014\u2013]|\s-\s|\b(?:and|but|so)\b/i)
      .map((clause) => clause.trim())
      .filter(Boolean)
  );
}
