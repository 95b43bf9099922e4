/**
 * The tools a request asks for by naming their action: "sort the products
 * by price", "please clear my list", "can you put milk on it", "tick it off"
 * (action-verbs.ts reads each tool's verbs), or says a thing is done
 * ("garlic's done": the tool that marks things done). A request in the form of a
 * question about the past ("did you sort it?") or an offer to refuse ("don't
 * add it") asks for nothing. English only; a request in another language
 * asks for nothing here, and the model decides alone.
 *
 * Why: a small model, once its history holds replies in words, answers a
 * plain request in words too ("Sure, I can help you sort the products"), or
 * says it did the thing. A request that names a tool's action is held to a call.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import { actionVerbsOf, formsOf, ownVerbsOf } from './action-verbs';
import { isQuestion } from './question';

/** What may stand before an imperative verb: nothing, a greeting or assent, "please", or a polite frame. */
const ASKING =
  /(^|[.!?,;:]\s*|\b(please|pls|plz|now|then|also|and|just|can you|could you|would you|will you|you can|i want you to|i need you to|i'd like you to|let's|go ahead and|help me|i want to|i need to|i'd like to)\s+)$/;
/** Words that make what follows a question about the past, a negation or a wish not to: no request. */
const NOT_ASKING = /\b(did|didn't|have you|has it|don't|do not|never|not|no need to|stop)\b/;
/**
 * A statement that a thing is done ("garlic's done", "the dry cleaning is done", "rent is paid… and the
 * report is finished") asks to mark it so; not a pronoun's ("that's done", "it's done": done with what?).
 */
const SAID_DONE =
  /(?:^|[\s,;.!])(?!(?:that|it|this|everything|all|i|we|you)\b)[a-z]+(?:'s|\s+(?:is|are))\s+(?:all\s+)?(?:done|finished|completed)\b/;
/** The verbs of a tool that marks a thing done, its own (fill_form's "complete" is only akin to fill). */
const MARKING = ['complete', 'finish', 'tick'];

export function askedActions(request: string, tools: readonly ToolDeclaration[]): string[] {
  const text = request.toLowerCase().replace(/[’‘]/g, "'");
  const asked = new Set<string>();
  for (const tool of tools) {
    const verbs = new Set(actionVerbsOf(tool).map((verb) => formsOf(verb).base));
    for (const match of text.matchAll(/[a-z]+/g)) {
      if (!verbs.has(match[0])) continue;
      const before = text
        .slice(0, match.index)
        .replace(/^\W*(hi|hey|hello|ok|okay|sure|great|thanks|thank you)\W*/, '');
      // A clause ends at a comma, a sentence's end or "and": "did you add milk? add it now" asks in its second.
      const clause = before.slice(Math.max(...[',', '.', '?', '!', ' and '].map((end) => before.lastIndexOf(end))) + 1);
      if (NOT_ASKING.test(clause)) continue;
      if (ASKING.test(before) || ASKING.test(clause)) asked.add(tool.name);
    }
  }
  if (SAID_DONE.test(text) && !isQuestion(request))
    for (const tool of tools) if (ownVerbsOf(tool).some((verb) => MARKING.includes(verb))) asked.add(tool.name);
  return [...asked];
}
