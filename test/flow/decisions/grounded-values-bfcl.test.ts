// The rule that a text of the model's own words is refused, held to BFCL's answers: how many of the values a right
// answer gives would it refuse (every accepted spelling of the value refused, with the case's question and its
// functions as what was said)? No model: each is a right call the layer would send back once.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { unsaid } from '../../../src/flow/decisions/grounded-values';
import { describedWords, valueWords } from '../../../src/flow/decisions/value-words';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { answersFile, casesFile, parseCategory } from '../../../eval/bfcl/load';
import type { BfclCategory } from '../../../eval/bfcl/categories';
import { parametersSchema } from '../../../eval/bfcl/type-map';
import { toolName } from '../../../eval/bfcl/tool-name';
import { hasSharedData, sharedDataPath } from '../../shared-data';

function refusedShare(category: BfclCategory): number {
  const read = (file: string) => readFileSync(sharedDataPath('bfcl', file), 'utf8');
  const cases = parseCategory(category, read(casesFile(category)), read(answersFile(category)));
  let lost = 0;
  for (const testCase of cases) {
    const said = valueWords(
      testCase.messages
        .map((message) => String(message.content))
        .join('\n')
        .toLowerCase(),
      new Set(),
    );
    const refused = testCase.expected!.some((call) => {
      const [name, args] = Object.entries(call)[0]!;
      const fn = testCase.functions.find((candidate) => candidate.name === name)!;
      const tool = { name: toolName(name), description: fn.description ?? '', parameters: parametersSchema(fn) };
      return Object.values(args as Record<string, unknown[]>).some((accepted) => {
        const texts = accepted.filter((value): value is string => typeof value === 'string' && value !== '');
        return (
          texts.length > 0 && texts.every((text) => unsaid(text, [said, describedWords([tool as ToolDeclaration])]))
        );
      });
    });
    if (refused) lost++;
  }
  console.info(`${category}: a right value refused in ${lost} of ${cases.length} cases`);
  return lost / cases.length;
}

describe.skipIf(!hasSharedData('bfcl'))("a text of the model's own words, on BFCL's right answers", () => {
  test.each(['simple_python', 'multiple', 'parallel', 'parallel_multiple', 'live_simple', 'live_multiple'] as const)(
    '%s: at most 1% of the cases lose a right value to it',
    (category) => {
      expect(refusedShare(category)).toBeLessThanOrEqual(0.01);
    },
  );
});
