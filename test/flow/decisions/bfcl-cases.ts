/** BFCL's cases as the decision layer's BFCL tests read them: each with its functions as tool declarations. */
import { readFileSync } from 'node:fs';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { answersFile, casesFile, parseCategory } from '../../../eval/bfcl/load';
import type { BfclCategory } from '../../../eval/bfcl/categories';
import { parametersSchema } from '../../../eval/bfcl/type-map';
import { toolName } from '../../../eval/bfcl/tool-name';
import { sharedDataPath } from '../../shared-data';

export interface BfclDecisionCase {
  id: string;
  /** The last thing the person said. */
  request: string;
  tools: ToolDeclaration[];
  /** The tools a right answer calls. */
  wanted: string[];
}

/** A category's cases with their answers (from ../shared/data/bfcl). */
export function bfclDecisionCases(category: BfclCategory): BfclDecisionCase[] {
  const read = (file: string) => readFileSync(sharedDataPath('bfcl', file), 'utf8');
  return parseCategory(category, read(casesFile(category)), read(answersFile(category))).map((testCase) => ({
    id: testCase.id,
    request: String(testCase.messages.filter((message) => message.role === 'user').at(-1)!.content),
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
  }));
}
