/**
 * BFCL's files as cases: `BFCL_v4_<category>.json` (one case a line) joined by
 * id with `possible_answer/BFCL_v4_<category>.json`. Reading the files is the
 * caller's (fs in Node, vite's glob in a page, commands.readFile in a browser
 * test); this only parses, so every caller gets the same cases.
 */
import { hasAnswers, type BfclCategory } from './categories';
import type { BfclCase, BfclFunction, BfclMessage, ExpectedCall } from './types';

/** Reads one of BFCL's files by its path under bfcl/, e.g. `possible_answer/BFCL_v4_multiple.json`. */
export type ReadBfclFile = (path: string) => Promise<string>;

export function casesFile(category: BfclCategory): string {
  return `BFCL_v4_${category}.json`;
}

export function answersFile(category: BfclCategory): string {
  return `possible_answer/BFCL_v4_${category}.json`;
}

export async function loadCategory(category: BfclCategory, read: ReadBfclFile): Promise<BfclCase[]> {
  const [cases, answers] = await Promise.all([
    read(casesFile(category)),
    hasAnswers(category) ? read(answersFile(category)) : undefined,
  ]);
  return parseCategory(category, cases, answers);
}

export function parseCategory(category: BfclCategory, casesText: string, answersText?: string): BfclCase[] {
  const answers = new Map<string, ExpectedCall[]>();
  for (const line of jsonLines(answersText ?? '', answersFile(category))) {
    const { id, ground_truth } = line as { id: string; ground_truth: ExpectedCall[] };
    answers.set(id, ground_truth);
  }
  return jsonLines(casesText, casesFile(category)).map((line) => {
    const {
      id,
      question,
      function: functions,
    } = line as {
      id: string;
      question: BfclMessage[][];
      function: BfclFunction[];
    };
    const expected = answers.get(id);
    if (answersText !== undefined && !expected) throw new Error(`${answersFile(category)} has no answer for ${id}.`);
    if (question.length !== 1) throw new Error(`${id} has ${question.length} turns; single-turn cases have one.`);
    return { id, category, messages: question[0]!, functions, ...(expected && { expected }) };
  });
}

function jsonLines(text: string, file: string): unknown[] {
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    try {
      return [JSON.parse(line)];
    } catch (error) {
      throw new Error(`${file}, line ${i + 1}: ${(error as Error).message}`);
    }
  });
}
