/** Every arm by name, in the order tables show them: (a) to (d) of issue 22, and issue 50's `ours-before`. */
import type { Arm, ArmName } from './arm';
import { fencedJson } from './fenced-json';
import { native } from './native';
import { ours, oursBefore, oursGivenValues, oursToolsThatFit, oursWithoutGrammar } from './ours';

export const ARMS: Readonly<Record<ArmName, Arm>> = {
  ours,
  'ours-before': oursBefore,
  'ours-tools-that-fit': oursToolsThatFit,
  'ours-given-values': oursGivenValues,
  'ours-no-grammar': oursWithoutGrammar,
  native,
  'fenced-json': fencedJson,
};

/** Accepts the names and the letters: a, b, c, d. */
export function armNamed(name: string): Arm {
  const byLetter: Record<string, ArmName> = { a: 'ours', b: 'ours-no-grammar', c: 'native', d: 'fenced-json' };
  const key = byLetter[name] ?? name;
  const arm = Object.hasOwn(ARMS, key) ? ARMS[key as ArmName] : undefined;
  if (!arm) throw new Error(`No arm "${name}"; use one of ${Object.keys(ARMS).join(', ')} (or a, b, c, d).`);
  return arm;
}
