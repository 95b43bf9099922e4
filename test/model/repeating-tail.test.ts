import { describe, expect, it } from 'vitest';
import { RepeatingTail } from '../../src/model/readers/repeating-tail';

/** Feeds `text` in pieces of `size` characters, as tokens come; the characters read when a loop was found. */
function readUntilLoop(text: string, size = 3): number | undefined {
  const tail = new RepeatingTail();
  for (let at = 0; at < text.length; at += size) if (tail.push(text.slice(at, at + size))) return at + size;
  return undefined;
}

describe('RepeatingTail', () => {
  it("stops the 0.5B's add_todo text soon after it starts to loop, and names the piece", () => {
    // The page suite's runaway: 1,078 tokens of it until the token limit.
    const runaway =
      '{"name": "add_todo", "arguments": {"text": "Bread, eggs, milk, ' + 'bread, eggs, milk, '.repeat(200);
    const read = readUntilLoop(runaway)!;
    expect(read).toBeLessThan(45 + 19 * 12);
    const tail = new RepeatingTail();
    tail.push(runaway);
    expect(tail.piece).toHaveLength('bread, eggs, milk, '.length);
    expect(runaway).toContain(tail.piece);
  });

  it('stops a repeated sentence and a run of one character', () => {
    const sentence = "I'm sorry, but I can't help with that request right now. ";
    expect(readUntilLoop('Well. ' + sentence.repeat(10))).toBeDefined();
    expect(readUntilLoop('<tool_call>'.repeat(30))).toBeDefined();
    expect(readUntilLoop('a' + ' '.repeat(400))).toBeDefined();
  });

  it("stops a turn of calls that cycles (the 0.5B's six sorts, over and over) in its second round", () => {
    const sort = (column: string, descending: boolean) =>
      `<tool_call>\n{"name": "sort_table", "arguments": {"column": "${column}", "descending": ${descending}, "filter": "${column}"}}\n</tool_call>\n`;
    const round = [true, false]
      .flatMap((descending) => ['stock', 'price', 'name'].map((c) => sort(c, descending)))
      .join('');
    expect(round.length).toBeGreaterThan(600);
    const read = readUntilLoop(round.repeat(6))!;
    expect(read).toBeGreaterThan(round.length);
    expect(read).toBeLessThanOrEqual(2 * round.length + 3);
  });

  it('lets a long passage written once through, and a short one written twice', () => {
    const passage =
      'Your list holds milk, eggs and bread; the note about Thursday is saved, and the table is sorted by price ' +
      'from the cheapest to the most expensive. ';
    expect(passage.length).toBeGreaterThan(128);
    expect(readUntilLoop(passage + 'Anything else? ' + passage.toUpperCase())).toBeUndefined();
    const short = 'The mug is the cheapest product on the page. ';
    expect(readUntilLoop(short + short + 'And the grinder costs the most.')).toBeUndefined();
  });

  it('lets through what a person asks for: short repeats, counting, tables, prose', () => {
    const counting = Array.from({ length: 200 }, (_, n) => n + 1).join(', ');
    const table =
      '| name | price |\n| --- | --- |\n' +
      ['Kettle', 'Teapot', 'Grinder', 'Mug'].map((p) => `| ${p} | 10 |`).join('\n');
    const zeros = '[' + Array.from({ length: 20 }, () => '0').join(', ') + ']';
    const prose =
      'The cheapest product is the mug, then the teapot and the kettle; the grinder costs the most. ' +
      'Your list holds milk, eggs and bread, and the note about Thursday is saved. ';
    for (const text of [counting, table, zeros, 'ha'.repeat(30), prose, '-'.repeat(100)])
      expect(readUntilLoop(text), text.slice(0, 40)).toBeUndefined();
  });

  it('finds the same loop whether the text comes whole or a character at a time', () => {
    const text = 'Sure! ' + 'eggs and milk and '.repeat(20);
    const atChar = readUntilLoop(text, 1)!;
    expect(atChar).toBeGreaterThan(6);
    // In pieces of 7, at the end of the piece that held that character.
    expect(readUntilLoop(text, 7)).toBe(Math.ceil(atChar / 7) * 7);
    const whole = new RepeatingTail();
    const byChar = new RepeatingTail();
    whole.push(text);
    for (const char of text) byChar.push(char);
    expect(whole.piece).toBe(byChar.piece);
  });

  it('reads a long output that never loops to its end (each character costs the same)', () => {
    let text = '';
    for (let n = 0; text.length < 200_000; n++) text += `item ${n * 7919} `;
    expect(readUntilLoop(text, 50)).toBeUndefined();
  });
});
