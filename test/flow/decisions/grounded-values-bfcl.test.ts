// The rules that refuse a call's values, held to BFCL's answers: how many of the values a right answer gives
// would they refuse (every accepted spelling of the value refused, with the case's question as what was said)?
// No model: each is a right call the layer would send back once.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { onlyTheAction, unasked, unsaid } from '../../../src/flow/decisions/grounded-values';
import { describedWords, valueWords } from '../../../src/flow/decisions/value-words';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { answersFile, casesFile, parseCategory } from '../../../eval/bfcl/load';
import type { BfclCategory } from '../../../eval/bfcl/categories';
import { parametersSchema } from '../../../eval/bfcl/type-map';
import { toolName } from '../../../eval/bfcl/tool-name';
import { hasSharedData, sharedDataPath } from '../../shared-data';
import { CATEGORIES_WITH_CALLS } from './bfcl-cases';

/** One argument of a right answer: its accepted values, and what the rule reads beside them. */
interface RightValue {
  accepted: unknown[];
  optional: boolean;
  said: Set<string>;
  own: Set<string>;
  tool: ToolDeclaration;
}

/** The share of a category's cases in which `refuses` refuses some argument of the right answer. */
function refusedShare(category: BfclCategory, refuses: (value: RightValue) => boolean, what: string): number {
  const read = (file: string) => readFileSync(sharedDataPath('bfcl', file), 'utf8');
  const cases = parseCategory(category, read(casesFile(category)), read(answersFile(category)));
  let lost = 0;
  for (const testCase of cases) {
    const text = testCase.messages.map((message) => String(message.content)).join('\n');
    const said = valueWords(text.toLowerCase(), new Set());
    const refused = testCase.expected!.some((call) => {
      const [name, args] = Object.entries(call)[0]!;
      const fn = testCase.functions.find((candidate) => candidate.name === name)!;
      const parameters = parametersSchema(fn);
      const tool = {
        name: toolName(name),
        description: fn.description ?? '',
        parameters,
        annotations: {},
      } as ToolDeclaration;
      const own = describedWords([tool]);
      const required = new Set((parameters.required as string[] | undefined) ?? []);
      return Object.entries(args as Record<string, unknown[]>).some(([key, accepted]) =>
        refuses({ accepted, optional: !required.has(key), said, own, tool }),
      );
    });
    if (refused) lost++;
  }
  console.info(`${category}: a right ${what} refused in ${lost} of ${cases.length} cases`);
  return lost / cases.length;
}

/** Every accepted spelling (a non-empty text) refused. */
function everyText(accepted: unknown[], refused: (text: string) => boolean): boolean {
  const texts = accepted.filter((value): value is string => typeof value === 'string' && value.trim() !== '');
  return texts.length > 0 && texts.every(refused);
}

describe.skipIf(!hasSharedData('bfcl'))("a text of the model's own words, on BFCL's right answers", () => {
  test.each(CATEGORIES_WITH_CALLS)('%s: at most 1% of the cases lose a right value to it', (category) => {
    const refuses = ({ accepted, said, own }: RightValue) => everyText(accepted, (text) => unsaid(text, [said, own]));
    expect(refusedShare(category, refuses, 'value')).toBeLessThanOrEqual(0.01);
  });
});

describe.skipIf(!hasSharedData('bfcl'))("an optional value no one asked for, on BFCL's right answers", () => {
  // Lost only where leaving the value out is not accepted either: refused, the model may leave it out.
  test.each(CATEGORIES_WITH_CALLS)('%s: at most 1% of the cases lose a right value to it', (category) => {
    const refuses = ({ accepted, optional, said, own }: RightValue) =>
      optional && !accepted.includes('') && everyText(accepted, (text) => unasked(text, said, own));
    expect(refusedShare(category, refuses, 'optional value')).toBeLessThanOrEqual(0.01);
  });
});

describe.skipIf(!hasSharedData('bfcl'))("a needed value of the tool's action alone, on BFCL's right answers", () => {
  test.each(CATEGORIES_WITH_CALLS)('%s: no case loses a right value to it', (category) => {
    const refuses = ({ accepted, optional, tool }: RightValue) =>
      !optional && everyText(accepted, (text) => onlyTheAction(text, tool));
    expect(refusedShare(category, refuses, 'needed value')).toBe(0);
  });
});
