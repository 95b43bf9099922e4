/** BFCL's cases as the decision layer's BFCL tests read them: each with its functions as tool declarations. */
import { readFileSync } from 'node:fs';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { answersFile, casesFile, parseCategory } from '../../../eval/bfcl/load';
import type { BfclCategory } from '../../../eval/bfcl/categories';
import { parametersSchema } from '../../../eval/bfcl/type-map';
import { toolName } from '../../../eval/bfcl/tool-name';
import { sharedDataPath } from '../../shared-data';

/** The categories whose right answers make calls: the ones a rule may never cost a right value or call. */
export const CATEGORIES_WITH_CALLS = [
  'simple_python',
  'multiple',
  'parallel',
  'parallel_multiple',
  'live_simple',
  'live_multiple',
] as const satisfies readonly BfclCategory[];

export interface BfclDecisionCase {
  id: string;
  /** The last thing the person said. */
  request: string;
  tools: ToolDeclaration[];
  /** The tools a right answer calls. */
  wanted: string[];
  /** A right answer's calls, each argument an accepted value (not left out): one the request holds, if any. */
  answer: { name: string; args: Record<string, unknown> }[];
}

/** A category's cases with their answers (from ../shared/data/bfcl). */
export function bfclDecisionCases(category: BfclCategory): BfclDecisionCase[] {
  const read = (file: string) => readFileSync(sharedDataPath('bfcl', file), 'utf8');
  return parseCategory(category, read(casesFile(category)), read(answersFile(category))).map((testCase) => {
    const request = String(testCase.messages.filter((message) => message.role === 'user').at(-1)!.content);
    const inRequest = (value: unknown) => request.toLowerCase().includes(String(value).toLowerCase());
    return {
      id: testCase.id,
      request,
      tools: testCase.functions.map(
        (fn) =>
          ({
            name: toolName(fn.name),
            description: fn.description ?? '',
            parameters: parametersSchema(fn),
            annotations: {},
          }) as ToolDeclaration,
      ),
      wanted: testCase.expected!.map((call) => toolName(Object.keys(call)[0]!)),
      answer: testCase.expected!.map((call) => {
        const [name, args] = Object.entries(call)[0]!;
        const given = Object.entries(args as Record<string, unknown[]>).flatMap(([key, accepted]) => {
          const given = accepted.filter((candidate) => candidate !== '');
          const value = given.find(inRequest) ?? given[0];
          return value === undefined ? [] : [[key, value] as const];
        });
        return { name: toolName(name), args: Object.fromEntries(given) };
      }),
    };
  });
}
