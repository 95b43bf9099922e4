// The guided tour, as prompts to pick: each shows a part of the agent (tools, approval, reading
// the page back). Anything else can be typed; these are only a start.
export const suggestions = [
  'Remember to buy milk and to call Ana',
  'Write a note about tomorrow’s meeting',
  'Sort the products by price, most expensive first',
  'Fill the contact form for Ana',
  'Mark milk done',
  'What’s on my list?',
  'Clear all my to-dos',
];

/** The next few suggestions the visitor has not used yet in this conversation. */
export function nextSuggestions(asked: string[], count = 3): string[] {
  const used = new Set(asked.map((text) => text.trim().toLowerCase()));
  return suggestions.filter((text) => !used.has(text.toLowerCase())).slice(0, count);
}
