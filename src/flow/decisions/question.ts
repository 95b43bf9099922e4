/**
 * A request that asks rather than tells: it ends with a question mark, or
 * opens as a question does ("what's 2+2", "did you save both notes", "how
 * many are left"). Whether it also asks for an action is asked-actions.ts's
 * to say ("can you add milk?" asks one). A question about the past ("did you
 * save both notes?") asks what the session did. English only.
 */

/** Words that ask what was done: "did you", "have you", "was it". */
const PAST_WORDS = [
  'did',
  "didn't",
  'have you',
  "haven't you",
  'has it',
  'has that',
  'was it',
  'were they',
  'is it done',
];

/** The openings of a question, where no imperative opens ("do the dishes" is a request; "does it" asks). */
const QUESTION_WORDS = [
  ...['what', "what's", 'whats', 'how', 'who', 'whose', 'why', 'when', 'where', 'which'],
  ...['is', 'are', 'was', 'were', 'does', 'can you tell', 'could you tell'],
  ...PAST_WORDS,
];

const OPENS_AS_QUESTION = new RegExp(`^(?:${QUESTION_WORDS.join('|')})\\b`);
const ABOUT_THE_PAST = new RegExp(`\\b(?:${PAST_WORDS.join('|')})\\b`);

export function isQuestion(request: string): boolean {
  const text = plain(request);
  return text.endsWith('?') || OPENS_AS_QUESTION.test(text);
}

export function asksAboutThePast(request: string): boolean {
  return ABOUT_THE_PAST.test(plain(request));
}

/** Lower case, curly apostrophes straight ("didn’t"). */
function plain(request: string): string {
  return request.trim().toLowerCase().replace(/[’‘]/g, "'");
}
