/**
 * The sentences of a reply that say an action was done, is being done or
 * will be ("I added milk", "The table is now sorted by price", "Sure, I'll
 * add it", "Done!"), each with the tools whose action it names. A question,
 * an offer ("I can add it if you like") or a negation ("I couldn't add it")
 * claims nothing. What a reply claims is held against what the run did
 * (unperformed-claims.ts): a small model that answers in words where it
 * should have called says it did the thing anyway.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import { actionVerbsOf, formsOf } from './action-verbs';

export interface Claim {
  /** The sentence, as the reply wrote it. */
  sentence: string;
  /** The tools whose action it names; empty for a claim that names none ("Done."): any action does. */
  tools: string[];
  /**
   * It says a tool ran, not what changed ("The tool has found the latest news", "… using the get_news
   * function"): any call of `tools` that ran backs it, a read too; any call at all when it names none.
   */
  ran?: true;
  /**
   * It says a thing left the page ("Yes, I sent the message"), which none of the tools does: the verb, which
   * no call backs. The demo's contact form is filled, never sent; the 0.5B, asked "did you send it?", said it had.
   */
  beyond?: OutwardVerb;
}

/** An action that leaves the page, with its forms. */
export interface OutwardVerb {
  base: string;
  done: string;
}

/** Actions that leave the page, by their past form: a reply may claim one only where a tool's own verb is it. */
const OUTWARD = new Map<string, OutwardVerb>(
  [
    { base: 'send', done: 'sent' },
    { base: 'submit', done: 'submitted' },
    { base: 'email', done: 'emailed' },
    { base: 'mail', done: 'mailed' },
    { base: 'forward', done: 'forwarded' },
    { base: 'deliver', done: 'delivered' },
  ].map((verb) => [verb.done, verb]),
);
/** Who says a thing left the page: the run ("I sent", "I've just submitted") or the thing ("it was sent"). */
const OUTWARD_SUBJECT = /\b(?:i|i've|i have|we|we've|we have|was|were|been|is|are)\s+(?:\w+\s+)?$/;

type Tense = 'not-yet' | 'done' | 'under-way';

/** The words before a verb that make its sentence an offer, a wish or a condition rather than a claim. */
const NOT_A_CLAIM =
  /\b(not|n't|never|cannot|unable|can|could|would|should|might|may|if|whether|want|wants|like|need|needs|please|don't|didn't|doesn't|won't|wasn't|weren't|haven't|hasn't|couldn't|shall)\b/;
/**
 * A verb whose subject is the person or someone else tells of what they did ("the items you added"), not of
 * what the reply claims the run did.
 */
const SOMEONE_ELSE =
  /\b(you|you've|you have|they|they've|he|she|the user|user|users|the visitor|someone|people)\s+(\w+\s+)?$/;
/** How a sentence promises an action in its base form. */
const PROMISE = /\b(i'll|i will|i am going to|i'm going to|going to|let me|i'll now|i shall)\s+(?:\w+\s+){0,2}$/;
/** What goes before an -ing form that says the action is under way: nothing ("Adding it now."), or "I'm". */
const UNDER_WAY = /(^\W*|\b(i'm|i am|now|am|is|are)\s+)$/;
/** A reply's opening word of assent, which changes nothing of what follows it ("Sure, adding it."). */
const OPENER = /^\W*(sure|ok|okay|alright|right|of course|certainly|got it)\W*/;
/** After a verb, who did it, by name ("created by Alibaba Cloud"): someone else, not the run ("sorted by price" is). */
const BY_SOMEONE = /^\s+by\s+[A-Z]/;
/**
 * A report of what a tool did, in a small model's words: "The tool has found …", "The function successfully
 * authenticated …". The word after it must be a verb's past: a description ("The tool is used to …", "The tool
 * can sort …", "The tool has been designed …") reports nothing.
 */
const TOOL_REPORT =
  /^\W*(?:[a-z]+,\s*)?(?:the|this|that)\s+(?:tool|function)\s+(?:has\s+|have\s+|had\s+|successfully\s+|just\s+|now\s+|also\s+)*([a-z]+)/;
const PAST =
  /^(?:[a-z]+ed|found|made|took|got|ran|sent|built|gave|did|wrote|set|put|read|brought|kept|showed|shown|given|done|taken|written|told|said|paid)$/;
const DESCRIBING = /^(?:used|designed|named|based|needed|required|intended|meant|supposed|called|limited|allowed)$/;
/** Where a sentence says which tool did it, by its name: "… using the get_news function", "I called add_todo". */
const BY_TOOL = /(?:using|used|with|via|through|by calling|called|calling|ran|run)\s+(?:the\s+)?[`'"]?$/;
/** A claim that names no action: the run did something, whatever it was. */
const DONE = /\b(done|all set|taken care of|completed|successfully|finished|updated)\b/;

export function findClaims(reply: string, tools: readonly ToolDeclaration[]): Claim[] {
  const verbs = new Map<string, { tools: Set<string>; tense: Tense }>();
  const add = (form: string, tense: Tense, tool: string) => {
    const entry = verbs.get(form) ?? { tools: new Set<string>(), tense };
    entry.tools.add(tool);
    verbs.set(form, entry);
  };
  for (const tool of tools)
    for (const verb of actionVerbsOf(tool)) {
      const forms = formsOf(verb);
      add(forms.base, 'not-yet', tool.name);
      add(forms.third, 'not-yet', tool.name);
      add(forms.ing, 'under-way', tool.name);
      for (const form of forms.done) add(form, 'done', tool.name);
    }
  const claims: Claim[] = [];
  for (const sentence of sentencesOf(reply)) {
    const lower = sentence.toLowerCase().replace(/[’‘]/g, "'");
    if (lower.trimEnd().endsWith('?')) continue;
    // Each clause's claim stands alone: "The tool added the items and marked the second one as done" after a
    // complete_todo claims an add no call made.
    const byClause = new Map<number, Set<string>>();
    for (const match of lower.matchAll(/[a-z]+(?:'[a-z]+)?/g)) {
      const verb = verbs.get(match[0]);
      if (!verb) continue;
      const before = lower.slice(0, match.index);
      if (NOT_A_CLAIM.test(lastClause(before)) || SOMEONE_ELSE.test(before)) continue;
      if (BY_SOMEONE.test(sentence.slice(match.index + match[0].length))) continue;
      const claim =
        verb.tense === 'done' ||
        (verb.tense === 'under-way' && UNDER_WAY.test(before.replace(OPENER, ''))) ||
        (verb.tense === 'not-yet' && PROMISE.test(before));
      if (!claim) continue;
      const clause = clauseAt(before);
      const named = byClause.get(clause) ?? new Set<string>();
      for (const tool of verb.tools) named.add(tool);
      byClause.set(clause, named);
    }
    for (const named of byClause.values()) claims.push({ sentence: sentence.trim(), tools: [...named] });
    if (byClause.size) continue;
    const beyond = outwardClaim(lower, verbs);
    if (beyond) {
      claims.push({ sentence: sentence.trim(), tools: [], beyond });
      continue;
    }
    const ranTools = reportedTools(lower, tools);
    if (ranTools) claims.push({ sentence: sentence.trim(), tools: ranTools, ran: true });
    // A bare "done" is weak evidence: an offer anywhere before it ("I can help you add items, mark them as done") takes it.
    else if (DONE.test(lower) && !NOT_A_CLAIM.test(lower.slice(0, lower.search(DONE))))
      claims.push({ sentence: sentence.trim(), tools: [] });
  }
  return claims;
}

/** The action that leaves the page a sentence says was done, where no tool's verb is it ("I sent the message"). */
function outwardClaim(lower: string, toolVerbs: ReadonlyMap<string, unknown>): OutwardVerb | undefined {
  for (const match of lower.matchAll(/[a-z]+/g)) {
    const verb = OUTWARD.get(match[0]);
    if (!verb || toolVerbs.has(verb.base)) continue;
    const before = lower.slice(0, match.index);
    if (OUTWARD_SUBJECT.test(before) && !NOT_A_CLAIM.test(lastClause(before)) && !SOMEONE_ELSE.test(before))
      return verb;
  }
  return undefined;
}

/**
 * The tools a sentence says ran, by name ("… using the get_news function": get_news) or as "the tool"
 * ("The tool has found …": none named, any call); undefined when it reports no tool's run.
 */
function reportedTools(lower: string, tools: readonly ToolDeclaration[]): string[] | undefined {
  const named = tools
    .filter((tool) => {
      const name = tool.name.toLowerCase();
      const at = lower.indexOf(name);
      if (at < 0 || /\w/.test(lower[at + name.length] ?? '')) return false;
      const before = lower.slice(0, at);
      return BY_TOOL.test(before) && !NOT_A_CLAIM.test(lastClause(before)) && !SOMEONE_ELSE.test(before);
    })
    .map((tool) => tool.name);
  if (named.length) return named;
  const verb = TOOL_REPORT.exec(lower)?.[1];
  return verb && PAST.test(verb) && !DESCRIBING.test(verb) ? [] : undefined;
}

/** A reply's sentences: split after . ! ? and at line breaks, never inside a number (2.5). */
function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).filter((sentence) => /[a-z]/i.test(sentence));
}

/** Which clause of its sentence a verb is in: the count of "and", "but" and semicolons before it. */
function clauseAt(before: string): number {
  return before.match(/;|\b(?:and|but|then|also)\b/g)?.length ?? 0;
}

/** The words since the last comma, semicolon or conjunction: what governs the next verb. */
function lastClause(text: string): string {
  const cut = Math.max(
    text.lastIndexOf(','),
    text.lastIndexOf(';'),
    text.lastIndexOf(' and '),
    text.lastIndexOf(' but '),
  );
  return cut < 0 ? text : text.slice(cut + 1);
}
