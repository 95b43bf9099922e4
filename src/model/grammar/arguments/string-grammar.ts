/**
 * A string's grammar in each syntax: any string, or one held to a pattern, a
 * format (the validator's own table, tools/json-schema-formats.ts: the same
 * regular expression, one character at a time) or length bounds.
 */
import { formatPattern } from '../../../tools/json-schema-formats';
import { ANY_CHAR } from '../char-set';
import { parsePattern, UnsupportedPattern, type Regex } from '../regex-pattern';
import { delimiters, oneOf, patternChar, type ArgumentSyntax } from '../string-syntax';
import type { GrammarBuild } from './grammar-build';
import { GrammarUnsupported } from './grammar-unsupported';
import { COUNT_LIMIT, EXPANSION_LIMIT, LENGTH_LIMIT, repeat } from './grammar-limits';

export function stringGrammar(
  build: GrammarBuild,
  schema: Record<string, unknown>,
  path: string,
  syntax: ArgumentSyntax,
): string | undefined {
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  const format = typeof schema.format === 'string' ? formatPattern(schema.format) : undefined;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const bounded = minLength > 0 || maxLength !== undefined;
  if (pattern !== undefined || format !== undefined) {
    if (pattern !== undefined && format !== undefined) build.loosen(path, `format "${schema.format}" beside a pattern`);
    if (bounded) build.loosen(path, 'length beside a pattern or format');
    return patternGrammar(build, pattern ?? format!, path, syntax);
  }
  if (bounded) return boundedGrammar(build, minLength, maxLength, path, syntax);
  return build.plainString(syntax);
}

function patternGrammar(build: GrammarBuild, source: string, path: string, syntax: ArgumentSyntax): string {
  let tree: Regex;
  try {
    tree = parsePattern(source);
  } catch (error) {
    if (!(error instanceof UnsupportedPattern)) throw error;
    throw new GrammarUnsupported(`${path || '/'} has the pattern ${JSON.stringify(source)}: ${error.message}`);
  }
  const body = regexGrammar(build, tree, path, syntax);
  if (body === undefined)
    throw new GrammarUnsupported(
      `${path || '/'} has the pattern ${JSON.stringify(source)}, which no string written in this syntax matches`,
    );
  const { open, close } = delimiters(syntax);
  return build.rule(`${open} ${body} ${close}`);
}

/** `scale`: how many copies of this part the repetitions around it make xgrammar expand. */
function regexGrammar(
  build: GrammarBuild,
  node: Regex,
  path: string,
  syntax: ArgumentSyntax,
  scale = 1,
): string | undefined {
  switch (node.kind) {
    case 'chars':
      return patternChar(syntax, node.set);
    case 'sequence': {
      const items = node.items.map((item) => regexGrammar(build, item, path, syntax, scale));
      if (items.some((item) => item === undefined)) return undefined;
      return items.length === 0 ? '""' : `(${items.join(' ')})`;
    }
    case 'choice': {
      const options = node.options.map((option) => regexGrammar(build, option, path, syntax, scale)).filter(Boolean);
      return options.length ? `(${options.join(' | ')})` : undefined;
    }
    case 'repeat': {
      let { min, max } = node;
      // A repetition is expanded into copies; nested ones multiply, and so does the compile time.
      if (max !== Infinity && (max > COUNT_LIMIT || scale * max > EXPANSION_LIMIT)) {
        build.loosen(path, `pattern repetition {${min},${max}}`);
        max = Infinity;
      }
      if (min > COUNT_LIMIT || scale * min > EXPANSION_LIMIT) {
        build.loosen(path, `pattern repetition {${min},}`);
        min = Math.min(COUNT_LIMIT, Math.floor(EXPANSION_LIMIT / scale));
      }
      const item = regexGrammar(build, node.item, path, syntax, scale * Math.max(1, min, max === Infinity ? 1 : max));
      if (item === undefined) return node.min === 0 ? '""' : undefined;
      return repeat(`(${item})`, min, max);
    }
  }
}

function boundedGrammar(
  build: GrammarBuild,
  minLength: number,
  maxLength: number | undefined,
  path: string,
  syntax: ArgumentSyntax,
): string {
  let min = minLength;
  let max = maxLength;
  if (min > LENGTH_LIMIT) {
    build.loosen(path, `minLength ${min}`);
    min = LENGTH_LIMIT;
  }
  if (max !== undefined && max > LENGTH_LIMIT) {
    build.loosen(path, `maxLength ${max}`);
    max = undefined;
  }
  const { open, close } = delimiters(syntax);
  const unit = oneOf(syntax, ANY_CHAR)!;
  const edge = oneOf(syntax, ANY_CHAR, true)!;
  let body: string;
  if (edge === unit) body = repeat(unit, min, max ?? Infinity);
  else {
    // The first and last character may not be whitespace (xml).
    const options: string[] = [];
    if (min === 0) options.push('""');
    if (min <= 1 && (max === undefined || max >= 1)) options.push(edge);
    if (max === undefined || max >= 2)
      options.push(`${edge} ${repeat(unit, Math.max(0, min - 2), max === undefined ? Infinity : max - 2)} ${edge}`);
    body = `(${options.join(' | ')})`;
  }
  return build.rule(`${open} ${body} ${close}`);
}
