/**
 * Reads xgrammar's EBNF (the dialect our argument grammars are written in,
 * grammar/ebnf-arguments.ts) into a grammar tree. One pass over the text,
 * linear in its length.
 *
 * Lookaheads `(= …)` are dropped: xgrammar uses them to match a rule's end
 * sooner, and ours only ever assert what the grammar lets follow anyway
 * (ebnf-arguments.ts: FOLLOWS), so the language stays the same without them.
 * GBNF has no lookahead.
 */
import { charSet, complement, union, type CharSet } from '../grammar/char-set';
import { choice, sequence, type GrammarNode, type GrammarRules } from './grammar-tree';

class EbnfSyntaxError extends Error {}

export function readEbnf(text: string): GrammarRules {
  return new EbnfReader(text).rules();
}

const NAME_START = /[A-Za-z_]/;
const NAME_REST = /[A-Za-z0-9_.-]/;

class EbnfReader {
  private at = 0;

  constructor(private readonly text: string) {}

  rules(): GrammarRules {
    const rules: GrammarRules = new Map();
    this.space();
    while (this.at < this.text.length) {
      const name = this.name();
      this.space();
      this.expect('::=');
      rules.set(name, this.alternatives());
      this.space();
    }
    if (!rules.has('root')) throw new EbnfSyntaxError('the grammar has no root rule');
    return rules;
  }

  private alternatives(): GrammarNode {
    const options = [this.sequence()];
    for (this.space(); this.text[this.at] === '|'; this.space()) {
      this.at++;
      options.push(this.sequence());
    }
    return choice(...options);
  }

  /** Items up to `|`, `)`, the end, or the next rule (a name followed by ::=). */
  private sequence(): GrammarNode {
    const items: GrammarNode[] = [];
    for (;;) {
      this.space();
      const ch = this.text[this.at];
      if (ch === undefined || ch === '|' || ch === ')' || this.atRuleStart()) break;
      if (this.text.startsWith('(=', this.at)) {
        this.at += 2;
        this.alternatives();
        this.space();
        this.expect(')');
        continue;
      }
      items.push(this.quantified(this.primary()));
    }
    return sequence(...items);
  }

  private primary(): GrammarNode {
    const ch = this.text[this.at];
    if (ch === '"') return { kind: 'literal', text: this.string() };
    if (ch === '[') return { kind: 'chars', set: this.charClass() };
    if (ch === '(') {
      this.at++;
      const inner = this.alternatives();
      this.space();
      this.expect(')');
      return inner;
    }
    if (NAME_START.test(ch ?? '')) return { kind: 'ref', name: this.name() };
    throw this.fail(`unexpected ${JSON.stringify(ch)}`);
  }

  private quantified(item: GrammarNode): GrammarNode {
    for (;;) {
      const ch = this.text[this.at];
      if (ch === '*') item = { kind: 'repeat', item, min: 0, max: Infinity };
      else if (ch === '+') item = { kind: 'repeat', item, min: 1, max: Infinity };
      else if (ch === '?') item = { kind: 'repeat', item, min: 0, max: 1 };
      else if (ch === '{') {
        const match = /\{\s*(\d*)\s*(,?)\s*(\d*)\s*\}/y;
        match.lastIndex = this.at;
        const found = match.exec(this.text);
        if (!found) throw this.fail('a malformed repetition');
        const min = found[1] ? Number(found[1]) : 0;
        const max = found[2] ? (found[3] ? Number(found[3]) : Infinity) : min;
        item = { kind: 'repeat', item, min, max };
        this.at = match.lastIndex;
        continue;
      } else return item;
      this.at++;
    }
  }

  private name(): string {
    const start = this.at;
    if (!NAME_START.test(this.text[this.at] ?? '')) throw this.fail('a rule name was expected');
    while (NAME_REST.test(this.text[this.at] ?? '')) this.at++;
    return this.text.slice(start, this.at);
  }

  private atRuleStart(): boolean {
    if (!NAME_START.test(this.text[this.at] ?? '')) return false;
    let i = this.at;
    while (NAME_REST.test(this.text[i] ?? '')) i++;
    while (/[ \t\r\n]/.test(this.text[i] ?? '')) i++;
    return this.text.startsWith('::=', i);
  }

  private string(): string {
    this.at++; // "
    let out = '';
    for (;;) {
      const ch = this.text[this.at];
      if (ch === undefined) throw this.fail('a string is not closed');
      if (ch === '"') {
        this.at++;
        return out;
      }
      out += ch === '\\' ? this.escape() : this.codePoint();
    }
  }

  private charClass(): CharSet {
    this.at++; // [
    const negated = this.text[this.at] === '^';
    if (negated) this.at++;
    const ranges: [number, number][] = [];
    for (;;) {
      const ch = this.text[this.at];
      if (ch === undefined) throw this.fail('a character class is not closed');
      if (ch === ']') {
        this.at++;
        break;
      }
      const lo = this.classChar();
      if (this.text[this.at] === '-' && this.text[this.at + 1] !== ']') {
        this.at++;
        ranges.push([lo, this.classChar()]);
      } else ranges.push([lo, lo]);
    }
    const set = union(charSet(...ranges));
    return negated ? complement(set) : set;
  }

  private classChar(): number {
    const text = this.text[this.at] === '\\' ? this.escape() : this.codePoint();
    return text.codePointAt(0)!;
  }

  private codePoint(): string {
    const ch = String.fromCodePoint(this.text.codePointAt(this.at)!);
    this.at += ch.length;
    return ch;
  }

  private escape(): string {
    const kind = this.text[this.at + 1];
    const hex = (length: number) => {
      const digits = this.text.slice(this.at + 2, this.at + 2 + length);
      if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digits))
        throw this.fail(`a \\${kind} escape needs ${length} hex digits`);
      this.at += 2 + length;
      return String.fromCodePoint(parseInt(digits, 16));
    };
    if (kind === 'x') return hex(2);
    if (kind === 'u') return hex(4);
    if (kind === 'U') return hex(8);
    this.at += 2;
    const named: Record<string, string> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', b: '\b', '0': '\0' };
    if (kind === undefined) throw this.fail('a backslash ends the grammar');
    return named[kind] ?? kind;
  }

  private space(): void {
    for (;;) {
      const ch = this.text[this.at];
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') this.at++;
      else if (ch === '#') while (this.at < this.text.length && this.text[this.at] !== '\n') this.at++;
      else return;
    }
  }

  private expect(token: string): void {
    if (!this.text.startsWith(token, this.at)) throw this.fail(`${JSON.stringify(token)} was expected`);
    this.at += token.length;
  }

  private fail(what: string): EbnfSyntaxError {
    return new EbnfSyntaxError(`EBNF at ${this.at}: ${what} (…${this.text.slice(this.at, this.at + 40)}…)`);
  }
}
