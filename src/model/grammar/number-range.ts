/**
 * EBNF for a JSON Schema number or integer within its bounds (minimum,
 * maximum, exclusiveMinimum, exclusiveMaximum), exactly: every text it allows
 * is a number inside the bounds, and every number inside them has a text it
 * allows. Numbers are written the way JSON, Python and Gemma 4 all read them:
 * no leading zeros, a fraction after ".", no "-0".
 *
 * xgrammar's own number ranges (its JSON-schema converter) bound the integer
 * part only, so `{"maximum": 1}` lets 1.468 through; this is why the formats
 * write numbers with this grammar instead.
 *
 * An unbounded number has at most 15 integer digits and an exponent of at
 * most two digits, so that every number the grammar allows is finite (a
 * validator reads 1e400 as Infinity, which no schema accepts as a number).
 */
export interface NumberBounds {
  integer: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
}

/** Integer digits of a number no bound limits. */
const FREE_DIGITS = 15;
const LARGEST = 10 ** FREE_DIGITS;

/** The grammar of the numbers within `bounds`, or undefined when no number is. */
export function numberGrammar(bounds: NumberBounds): string | undefined {
  const { integer } = bounds;
  let min = bounds.minimum;
  let max = bounds.maximum;
  let minOpen = Boolean(bounds.exclusiveMinimum);
  let maxOpen = Boolean(bounds.exclusiveMaximum);
  if (min === Infinity || max === -Infinity || Number.isNaN(min) || Number.isNaN(max)) return undefined;
  // A bound past what the digit limit allows anyway limits nothing.
  if (min !== undefined && min <= -LARGEST) [min, minOpen] = [undefined, false];
  if (max !== undefined && max >= LARGEST) [max, maxOpen] = [undefined, false];
  if (integer) {
    if (min !== undefined) [min, minOpen] = [minOpen && Number.isInteger(min) ? min + 1 : Math.ceil(min), false];
    if (max !== undefined) [max, maxOpen] = [maxOpen && Number.isInteger(max) ? max - 1 : Math.floor(max), false];
  }
  if (min !== undefined && max !== undefined && (min > max || (min === max && (minOpen || maxOpen)))) return undefined;
  if (min === undefined && max === undefined && !integer) return `("-"? ${natural()} ${FRACTION}? ${EXPONENT}?)`;

  const options: string[] = [];
  // Negative numbers: their magnitude within (max(0, -max), -min].
  if (min === undefined || min < 0) {
    const magnitude = magnitudeGrammar(integer, {
      low: max !== undefined && max < 0 ? -max : 0,
      lowOpen: max !== undefined && max < 0 ? maxOpen : true,
      high: min === undefined ? undefined : -min,
      highOpen: minOpen,
    });
    if (magnitude) options.push(`"-" ${magnitude}`);
  }
  // Zero and positive numbers: within [max(0, min), max].
  if (max === undefined || max >= 0) {
    const magnitude = magnitudeGrammar(integer, {
      low: min !== undefined && min >= 0 ? min : 0,
      lowOpen: min !== undefined && min >= 0 ? minOpen : false,
      high: max,
      highOpen: maxOpen,
    });
    if (magnitude) options.push(magnitude);
  }
  return options.length ? `(${options.join(' | ')})` : undefined;
}

const FRACTION = '("." [0-9]+)';
const EXPONENT = '([eE] [+-]? [0-9] [0-9]?)';

interface Magnitudes {
  low: number;
  lowOpen: boolean;
  high?: number;
  highOpen: boolean;
}

/** Non-negative numbers written without a sign, within the bounds. */
function magnitudeGrammar(integer: boolean, range: Magnitudes): string | undefined {
  const low = decimal(range.low, 'up');
  const high = range.high === undefined ? undefined : decimal(range.high, 'down');
  if (integer) {
    // The bounds are integers already (numberGrammar rounded them inward); open ends step in by one.
    const from = range.lowOpen ? increment(low.int) : low.int;
    const to = high === undefined ? undefined : range.highOpen ? decrement(high.int) : high.int;
    return naturalRange(from, to);
  }
  const options: string[] = [];
  const lowInt = low.int;
  const highInt = high?.int;
  if (highInt !== undefined && compareNaturals(lowInt, highInt) === 0) {
    const fraction = fractionGrammar(between(low.frac, high!.frac, range.lowOpen, range.highOpen));
    if (fraction !== undefined) options.push(`${quote(lowInt)} ${fraction}`);
  } else {
    const first = fractionGrammar(range.lowOpen ? above(low.frac) : atLeast(low.frac));
    if (first !== undefined) options.push(`${quote(lowInt)} ${first}`);
    const inner = naturalRange(increment(lowInt), highInt === undefined ? undefined : decrement(highInt));
    if (inner) options.push(`${inner} ${FRACTION}?`);
    if (highInt !== undefined) {
      const last = fractionGrammar(range.highOpen ? below(high!.frac) : atMost(high!.frac));
      if (last !== undefined) options.push(`${quote(highInt)} ${last}`);
    }
  }
  return options.length ? `(${options.join(' | ')})` : undefined;
}

/**
 * Digit strings d read as the fraction 0.d: which non-empty ones are allowed
 * (an EBNF expression, or undefined for none), and whether no digits at all
 * (the value's fraction is 0) is allowed.
 */
interface Digits {
  some?: string;
  none: boolean;
}

/** A fraction part: "." and digits, optional where a zero fraction is allowed. */
function fractionGrammar(digits: Digits): string | undefined {
  if (digits.some === undefined) return digits.none ? '""' : undefined;
  return digits.none ? `("." ${digits.some})?` : `"." ${digits.some}`;
}

/** Possibly empty digit strings of `digits`, as one expression (undefined: not even the empty one). */
function anyOf(digits: Digits): string | undefined {
  if (digits.some === undefined) return digits.none ? '""' : undefined;
  return digits.none ? `(${digits.some})?` : digits.some;
}

function alternatives(options: (string | undefined)[]): string | undefined {
  const present = options.filter((option): option is string => option !== undefined);
  return present.length ? `(${present.join(' | ')})` : undefined;
}

function digitClass(from: number, to: number): string | undefined {
  if (from > to) return undefined;
  return from === to ? `"${from}"` : `[${from}-${to}]`;
}

/** 0.d ≥ 0.s (`s`: digits without trailing zeros). */
function atLeast(s: string): Digits {
  if (s === '') return { some: '[0-9]+', none: true };
  const head = Number(s[0]);
  const rest = anyOf(atLeast(s.slice(1)));
  const higher = digitClass(head + 1, 9);
  return {
    some: alternatives([higher && `${higher} [0-9]*`, rest && `"${head}" ${rest}`]),
    none: false,
  };
}

/** 0.d > 0.s. */
function above(s: string): Digits {
  if (s === '') return { some: '"0"* [1-9] [0-9]*', none: false };
  const head = Number(s[0]);
  const rest = anyOf(above(s.slice(1)));
  const higher = digitClass(head + 1, 9);
  return {
    some: alternatives([higher && `${higher} [0-9]*`, rest && `"${head}" ${rest}`]),
    none: false,
  };
}

/** 0.d ≤ 0.s. */
function atMost(s: string): Digits {
  if (s === '') return { some: '"0"+', none: true };
  const head = Number(s[0]);
  const rest = anyOf(atMost(s.slice(1)));
  const lower = digitClass(0, head - 1);
  return {
    some: alternatives([lower && `${lower} [0-9]*`, rest && `"${head}" ${rest}`]),
    none: true,
  };
}

/** 0.d < 0.s. */
function below(s: string): Digits {
  if (s === '') return { none: false };
  const head = Number(s[0]);
  const rest = anyOf(below(s.slice(1)));
  const lower = digitClass(0, head - 1);
  return {
    some: alternatives([lower && `${lower} [0-9]*`, rest && `"${head}" ${rest}`]),
    none: true,
  };
}

/** 0.a ≤ 0.d ≤ 0.b (either end open), where 0.a ≤ 0.b: digit by digit while they agree. */
function between(a: string, b: string, aOpen: boolean, bOpen: boolean): Digits {
  const none = a === '' && !aOpen && (b !== '' || !bOpen);
  if (a === '' && b === '') return { none };
  const aHead = Number(a[0] ?? '0');
  const bHead = Number(b[0] ?? '0');
  const aRest = a.slice(1);
  const bRest = b.slice(1);
  if (aHead === bHead) {
    const inner = anyOf(between(aRest, bRest, aOpen, bOpen));
    return { some: inner && `"${aHead}" ${inner}`, none };
  }
  const first = anyOf(aOpen ? above(aRest) : atLeast(aRest));
  const middle = digitClass(aHead + 1, bHead - 1);
  const last = anyOf(bOpen ? below(bRest) : atMost(bRest));
  return {
    some: alternatives([first && `"${aHead}" ${first}`, middle && `${middle} [0-9]*`, last && `"${bHead}" ${last}`]),
    none,
  };
}

/** A natural number without leading zeros and at most `digits` long. */
function natural(digits = FREE_DIGITS): string {
  return `("0" | [1-9] [0-9]{0,${digits - 1}})`;
}

/** Naturals from `from` to `to` (inclusive, digit strings); `to` absent: no upper bound but the digit limit. */
function naturalRange(from: string, to: string | undefined): string | undefined {
  if (to === undefined) {
    const length = Math.max(FREE_DIGITS, from.length + 1);
    const longest = '9'.repeat(length);
    return naturalRange(from, longest);
  }
  if (to.startsWith('-') || compareNaturals(from, to) > 0) return undefined;
  const options: string[] = [];
  for (let length = from.length; length <= to.length; length++) {
    const low = length === from.length ? from : length === 1 ? '0' : `1${'0'.repeat(length - 1)}`;
    const high = length === to.length ? to : '9'.repeat(length);
    options.push(sameLengthRange(low, high));
  }
  return options.length === 1 ? options[0] : `(${options.join(' | ')})`;
}

/** Digit strings of one length from `low` to `high`. */
function sameLengthRange(low: string, high: string): string {
  if (low === high) return quote(low);
  let common = 0;
  while (low[common] === high[common]) common++;
  const prefix = low.slice(0, common);
  const rest = low.length - common - 1;
  const lowHead = Number(low[common]);
  const highHead = Number(high[common]);
  const options = [
    `"${lowHead}" ${atLeastDigits(low.slice(common + 1))}`,
    ...(highHead - lowHead > 1 ? [`${digitClass(lowHead + 1, highHead - 1)}${rest ? ` [0-9]{${rest}}` : ''}`] : []),
    `"${highHead}" ${atMostDigits(high.slice(common + 1))}`,
  ];
  return `${prefix ? `${quote(prefix)} ` : ''}(${options.join(' | ')})`;
}

/** Digit strings of the same length as `s` and at least `s`. */
function atLeastDigits(s: string): string {
  if (s === '') return '""';
  if (/^0+$/.test(s)) return `[0-9]{${s.length}}`;
  const head = Number(s[0]);
  const higher = digitClass(head + 1, 9);
  const rest = s.length - 1;
  const options = [`"${head}" ${atLeastDigits(s.slice(1))}`];
  if (higher) options.push(`${higher}${rest ? ` [0-9]{${rest}}` : ''}`);
  return `(${options.join(' | ')})`;
}

/** Digit strings of the same length as `s` and at most `s`. */
function atMostDigits(s: string): string {
  if (s === '') return '""';
  if (/^9+$/.test(s)) return `[0-9]{${s.length}}`;
  const head = Number(s[0]);
  const lower = digitClass(0, head - 1);
  const rest = s.length - 1;
  const options = [`"${head}" ${atMostDigits(s.slice(1))}`];
  if (lower) options.push(`${lower}${rest ? ` [0-9]{${rest}}` : ''}`);
  return `(${options.join(' | ')})`;
}

function quote(digits: string): string {
  return `"${digits}"`;
}

/**
 * A non-negative finite number as its integer digits and its fraction digits
 * (no trailing zeros), as written, but with at most FRACTION_DIGITS of
 * fraction, rounded inward (`up` for a lower bound, `down` for an upper one):
 * each fraction digit of a bound nests the grammar one level deeper.
 */
function decimal(value: number, round: 'up' | 'down'): { int: string; frac: string } {
  const [mantissa, exponentText] = String(value).split('e');
  const exponent = Number(exponentText ?? 0);
  const [intPart, fracPart = ''] = mantissa.split('.');
  const digits = intPart + fracPart;
  const point = intPart.length + exponent;
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : digits.padEnd(point, '0');
  const at = Math.max(point, 1);
  let int = padded.slice(0, at).replace(/^0+(?=\d)/, '');
  let frac = padded.slice(at).replace(/0+$/, '');
  if (frac.length > FRACTION_DIGITS) {
    const cut = frac.slice(FRACTION_DIGITS);
    frac = frac.slice(0, FRACTION_DIGITS);
    if (round === 'up' && /[1-9]/.test(cut)) {
      const next = increment(`1${frac}`); // the leading 1 becomes 2 when the fraction carries into the integer
      if (next[0] === '2') int = increment(int);
      frac = next.slice(-FRACTION_DIGITS);
    }
    frac = frac.replace(/0+$/, '');
  }
  return { int, frac };
}

const FRACTION_DIGITS = 12;

function compareNaturals(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - i - 1);
}

/** One less, or "-1" below zero. */
function decrement(digits: string): string {
  if (digits === '0') return '-1';
  let i = digits.length - 1;
  while (digits[i] === '0') i--;
  const out = digits.slice(0, i) + String(Number(digits[i]) - 1) + '9'.repeat(digits.length - i - 1);
  return out.replace(/^0+(?=\d)/, '');
}
