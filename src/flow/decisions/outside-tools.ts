/**
 * A request that shares no word with any tool is no tool's job, when
 * nothing else says it is: three or more words that say something (not
 * "please", not a number), none of them in the tools' names, descriptions or
 * parameters, and no call earlier in the session (a conversation that has
 * used its tools makes "oh and eggs too" a tool's job whatever its words).
 *
 * Why: Qwen2.5-Coder 0.5B calls the one function it is offered for nearly any
 * question ("the area of a triangle" with a body-mass-index function, "who
 * won the world series" with a SQL runner). On BFCL's cases outside the
 * eval's sample, the rule holds to words 48% of irrelevance's 210 and 28% of
 * live_irrelevance's 854, and 1.1% of simple_python's 370, 0.6% of
 * multiple's 170, 6.6% of live_simple's 228 (questions in other languages),
 * 2.1% of live_multiple's 1,023. Terse requests ("eggs too") are left to the
 * model, but for a greeting, thanks or goodbye alone.
 *
 * A question is judged by fewer words and at any point of a session: one
 * that asks who, what, how… of something no tool names ("hello, who are
 * you?", "did that work?", "what's the capital of Australia?") wants words.
 * The 0.5B called add_todo with "Hello, who are you?" after a first request
 * had called it (its odds of a call 0.64 to 0.7, by the prompt).
 */
import type { AgentEvent } from '../../session/event';
import type { ToolDeclaration } from '../../tools/declaration';
import { wordsBefore } from './session-words';
import { toolWords, valueWords } from './value-words';

/** Words too plain to say what a request is about: asking and telling verbs. */
export const PLAIN_WORDS = new Set(
  'give provide find tell show calculate compute retrieve fetch use using given ask user keep'.split(' '),
);
/** Words a request needs, at least, to be judged by them. */
const SAYING_ENOUGH = 3;
/** A question asks something (a question word or a verb first in its clause), not "and eggs?". */
const ASKS = /\b(who|what|what's|whats|when|where|why|how|which|whose|is|are|was|were|do|does|did)\b[^?]*\?\s*$/i;
/**
 * A greeting, thanks or goodbye and nothing else ("hi!", "ok thanks!", "thanks, bye", "hello there", "see you
 * later") is answered in words: the 0.5B's odds of a call on "hi!" were 0.78 in the page suite, and it added a
 * to-do "Complete the task."; on "see you later" after two to-dos, 0.94, and it marked "See you later." done.
 * A bare "ok" or "yes" is left to the model: it may answer the model's own question.
 */
const GREETING =
  /^\W*(?:(?:hi|hello|hey|hiya|howdy|thanks|thank you|thx|ty|bye|goodbye|cheers|see you|see ya|later|take care|good (?:morning|afternoon|evening|night))\W*(?:(?:there|all|again|so much|a lot|very much|for now|you|ok|okay|great|cool|then|later|soon|tomorrow)\W*)*)+$/i;
/**
 * A telling verb for the person and a thing ("tell me a joke", "can you give me a fun fact?"; not "tell me what…",
 * which a tool may answer) asks for words, when what it asks names nothing of the tools or of the session: the 0.5B's odds of a call on "tell me a joke" were 0.88
 * after a session's sorts and to-dos, and it wrote its refusal as a to-do.
 */
const TELL_ME =
  /^\W*(?:(?:please|pls|so|now|ok|okay)\W+)*(?:(?:can|could|would|will)\s+you\s+)?(?:tell|give|show|find)\s+(?:me|us)\b(?!\s+(?:what|whether|if|how|when|where|who|which|why|about)\b)/i;
/** A question that asks for an action ("can you sort the table?") is a request, left to the other rules. */
const ASKS_TO_DO = /^\W*(please\s+)?(can|could|would|will)\s+you\b/i;

export function outsideTools(
  request: string,
  tools: readonly ToolDeclaration[],
  history: readonly AgentEvent[],
): boolean {
  if (GREETING.test(request.replace(/^\W*(?:ok|okay|great|cool|perfect|nice)\b/i, ''))) return true;
  const words = [...valueWords(request, new Set())].filter(
    (word) => !PLAIN_WORDS.has(word) && !/^\d/.test(word) && word.length > 1,
  );
  const own = toolWords(tools);
  // A question of no telling words at all ("who are you?") names no tool's thing either.
  const noneOfTheTools = !words.some((word) => own.has(word));
  if (noneOfTheTools && ASKS.test(request) && !ASKS_TO_DO.test(request)) return true;
  if (noneOfTheTools && TELL_ME.test(request)) {
    const held = wordsBefore(history, undefined, { said: true, calls: () => true, returned: true });
    if (!words.some((word) => held.has(word))) return true;
  }
  if (words.length < SAYING_ENOUGH) return false;
  if (history.some((event) => event.content?.parts.some((part) => 'functionCall' in part))) return false;
  return noneOfTheTools;
}
