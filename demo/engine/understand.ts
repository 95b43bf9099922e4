// What the stand-in understands of a request: a few patterns about the sample page, nothing more.
// Each rule gives the tool calls a model would make for it; anything else is answered honestly.
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

export type Understanding =
  { kind: 'calls'; rule: string; calls: PlannedCall[] } | { kind: 'say'; rule: string; text: string };

const EXAMPLES =
  '“add buy milk”, “mark milk done”, “what’s on my list?”, “clear the list”, “note: call the plumber”, “sort products by price” or “fill the contact form for Ana”';
export const CAPABILITIES = `I understand requests about this page, such as ${EXAMPLES}.`;

export const CANNOT =
  'Without a local model I only understand requests about this page’s to-dos, notes, products and form.';

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** Trims what people put around an item: quotes, "to", "the", a final full stop. */
function item(text: string): string {
  return capital(
    text
      .trim()
      .replace(/^["'“‘]+|["'”’.!?]+$/g, '')
      .replace(/^(?:to|the|a|an)\s+/i, '')
      .trim(),
  );
}
/** "buy milk and to call Ana, walk the dog" → three items. */
function items(list: string): string[] {
  return list
    .split(/\s*(?:,|;|\band\b|\bthen\b|&)\s*/i)
    .map(item)
    .filter(Boolean);
}

const rules: ((text: string) => Understanding | undefined)[] = [
  // Greetings and "what can you do?": say what the stand-in is, and what it understands.
  (text) =>
    /^(?:hi|hello|hey|help|what can you do|who are you|what are you)\b/i.test(text)
      ? {
          kind: 'say',
          rule: 'greeting',
          text: `Hello! This is demo mode: no AI model is running, I am a small set of rules. ${CAPABILITIES}`,
        }
      : undefined,
  (text) =>
    /\b(?:clear|empty|wipe)\b.*\b(?:list|to-?dos?|tasks|all|everything)\b|\b(?:delete|remove)\s+(?:all|every|everything)\b/i.test(
      text,
    )
      ? { kind: 'calls', rule: 'clear the list', calls: [{ name: 'clear_todos', args: {} }] }
      : undefined,
  (text) => {
    const match = /\b(?:fill|complete|prepare|write)\b.*\b(?:contact|form)\b.*?\b(?:for|to)\s+(.+)$/i.exec(text);
    if (!match) return undefined;
    // A name is one word, and a second one only if it is capitalized ("Ana Lima", not "Ana saying…").
    const [first, second] = match[1]!.split(/\s+/);
    const name = capital(first!.replace(/[^\p{L}'-]/gu, '')) + (second && /^\p{Lu}/u.test(second) ? ` ${second}` : '');
    const email = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(text)?.[0] ?? `${first!.toLowerCase()}@example.org`;
    const said = /\b(?:saying|message|that says)\s*:?\s+(.+)$/i.exec(text)?.[1];
    const message = said ? item(said) : `Hello ${capital(first!)}, I would like to get in touch. Best wishes`;
    return {
      kind: 'calls',
      rule: 'fill the contact form',
      calls: [{ name: 'fill_form', args: { name, email, message } }],
    };
  },
  (text) => {
    const match =
      /^(?:mark|tick(?: off)?|check(?: off)?|complete|finish|cross(?: off)?)\s+(.+?)(?:\s+(?:as\s+)?(?:done|complete|completed|finished|off))?$/i.exec(
        text,
      ) ?? /^(.+?)\s+is\s+(?:done|finished|complete)$/i.exec(text);
    return match
      ? {
          kind: 'calls',
          rule: 'mark done',
          calls: items(match[1]!).map((text) => ({ name: 'complete_todo', args: { text: text.toLowerCase() } })),
        }
      : undefined;
  },
  (text) => {
    const match =
      /^(?:note|write down)\s*:?\s+(.+)$/i.exec(text) ??
      /^(?:write|take|add|make)\s+(?:a|me a)\s+note\s*(?:about|on|:|that|saying)?\s*(.+)$/i.exec(text);
    if (!match) return undefined;
    const body = item(match[1]!);
    // A title of at most six words that does not end on a small word ("Call the plumber about the").
    const words = body.split(/\s+/).slice(0, 6);
    while (words.length > 1 && /^(?:the|a|an|about|to|of|for|and|with|at|on|in)$/i.test(words.at(-1)!)) words.pop();
    const title = words.join(' ');
    return { kind: 'calls', rule: 'write a note', calls: [{ name: 'add_note', args: { title, body } }] };
  },
  (text) => {
    if (!/\b(?:sort|order|rank|arrange)\b/i.test(text) || /to-?do/i.test(text)) return undefined;
    const column = /\b(?:stock|quantity|how many)\b/i.test(text)
      ? 'stock'
      : /\b(?:name|alphabetical)/i.test(text)
        ? 'name'
        : 'price';
    const descending =
      /\b(?:desc|descending|most|highest|high to low|largest|biggest|expensive first|z to a|reverse)\b/i.test(text);
    const filter = /\b(?:only|containing|named)\s+["“]?(\p{L}+)["”]?\s*$/iu.exec(text)?.[1];
    return {
      kind: 'calls',
      rule: 'sort the products',
      calls: [{ name: 'sort_table', args: { column, descending, ...(filter && { filter }) } }],
    };
  },
  (text) =>
    /\b(?:what(?:'|’)?s|what is|which|show|list|read)\b.*\b(?:list|to-?dos?|tasks|open)\b/i.test(text)
      ? { kind: 'calls', rule: 'read the list', calls: [{ name: 'list_todos', args: {} }] }
      : undefined,
  (text) => {
    const match =
      /^(?:add|remember(?: to)?|remind me to|put|i need to|don'?t forget to)\s+(.+?)(?:\s+(?:to|on)\s+(?:my|the)\s+(?:to-?do\s+)?list)?$/i.exec(
        text,
      );
    const found = match ? items(match[1]!) : [];
    return found.length
      ? { kind: 'calls', rule: 'add to-dos', calls: found.map((text) => ({ name: 'add_todo', args: { text } })) }
      : undefined;
  },
];

export function understand(request: string): Understanding {
  const text = request
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^please\s+/i, '')
    .replace(/[.!?]+$/, '');
  for (const rule of rules) {
    const found = rule(text);
    if (found) return found;
  }
  return { kind: 'say', rule: 'not understood', text: `${CANNOT} Try ${EXAMPLES}.` };
}
