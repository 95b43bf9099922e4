/**
 * The mechanics check's answer to a case, and the verdict the judge must
 * give it: BFCL's possible answer as a perfect model would write it, or, for
 * a share of cases picked by the seed, the same answer made wrong on purpose
 * (a value, a required parameter, the name, a call too many, no call, output
 * cut off). So a run without a model still shows every kind of verdict, and
 * each can be checked against what was meant.
 */
import { checkerFor } from '../bfcl/categories';
import { possibleCalls } from '../bfcl/possible-calls';
import type { BfclCase, ModelCall } from '../bfcl/types';
import type { Arm, ScriptedAnswer } from '../arms/arm';
import { extraCall, missingRequired, otherFunction, wrongValue, type Corrupted } from './corrupt';
import { plausibleCall } from './plausible-call';

export interface Expected {
  verdict: 'correct' | 'wrong' | 'invalid';
  rule?: string;
}

export interface MechanicsAnswer extends ScriptedAnswer {
  /** What was done to the answer: 'right', or the mistake made on purpose. */
  kind: string;
  expect: Expected;
}

const NO_CALL_TEXT = 'None of these tools fits the request.';
const TOO_MANY = 'a call too many';

type Maker = (testCase: BfclCase) => MechanicsAnswer | undefined;

/** One answer for a case, picked by the seed: right three times as often as each mistake that applies. */
export function mechanicsAnswer(testCase: BfclCase, seed: string): MechanicsAnswer {
  const answers = everyAnswer(testCase);
  const [right, ...mistakes] = answers;
  const weighted = [right!, right!, right!, ...mistakes];
  return weighted[hash(`${seed}/${testCase.id}`) % weighted.length]!;
}

/** The right answer first, then each mistake that applies to the case. */
export function everyAnswer(testCase: BfclCase): MechanicsAnswer[] {
  return makersFor(testCase).flatMap((make) => make(testCase) ?? []);
}

/**
 * What the judge must say once the arm has passed the answer on. The AI SDK's
 * providers pass on the first call only: a parallel answer is then one call
 * short, and a call too many after a right one is no longer too many.
 */
export function expectedFor(answer: MechanicsAnswer, arm: Arm, testCase: BfclCase): Expected {
  const kind = checkerFor(testCase.category);
  if (!arm.firstCallOnly || answer.cut || answer.calls.length < 2) return answer.expect;
  if (kind === 'parallel') return { verdict: 'wrong', rule: 'parallel_function_checker_no_order:wrong_count' };
  if (answer.kind === TOO_MANY) return { verdict: 'correct' };
  return answer.expect;
}

function makersFor(testCase: BfclCase): Maker[] {
  const kind = checkerFor(testCase.category);
  const anyCall = (): ModelCall[] => [plausibleCall(testCase.functions[0]!)];
  if (kind === 'irrelevance') {
    const right: Maker = () => ({
      kind: 'right',
      calls: [],
      text: NO_CALL_TEXT,
      cut: false,
      expect: { verdict: 'correct' },
    });
    return [
      right,
      (c) => (c.functions.length ? wrongly('a call', anyCall(), 'irrelevance_error:decoder_success') : undefined),
      // A call that cannot be read is no call to BFCL.
      (c) =>
        c.functions.length
          ? { kind: 'cut', calls: anyCall(), text: '', cut: true, expect: { verdict: 'correct' } }
          : undefined,
    ];
  }
  if (kind === 'relevance') {
    const right: Maker = () => ({
      kind: 'right',
      calls: anyCall(),
      text: '',
      cut: false,
      expect: { verdict: 'correct' },
    });
    return [
      right,
      () => wrongly('no call', [], 'relevance_error:decoder_failed', NO_CALL_TEXT),
      () => ({
        kind: 'cut',
        calls: anyCall(),
        text: '',
        cut: true,
        expect: { verdict: 'wrong', rule: 'relevance_error:decoder_failed' },
      }),
    ];
  }
  const right: Maker = (c) => ({
    kind: 'right',
    calls: possibleCalls(c),
    text: '',
    cut: false,
    expect: { verdict: 'correct' },
  });
  const corrupted =
    (name: string, corrupt: (c: BfclCase, calls: ModelCall[]) => Corrupted | undefined): Maker =>
    (c) => {
      const made = corrupt(c, possibleCalls(c));
      return made && wrongly(name, made.calls, made.rule);
    };
  const checker = kind === 'parallel' ? 'parallel_function_checker_no_order' : `${kind}_function_checker`;
  return [
    right,
    corrupted('a value no answer accepts', wrongValue),
    corrupted('a required parameter left out', missingRequired),
    // Another declared function: a call to an undeclared one is not read as a call by every reader.
    corrupted('another function', otherFunction),
    corrupted(TOO_MANY, extraCall),
    () => wrongly('no call', [], `${checker}:wrong_count`, NO_CALL_TEXT),
    (c) => ({
      kind: 'cut',
      calls: possibleCalls(c),
      text: '',
      cut: true,
      expect: { verdict: 'invalid', rule: 'ast_decoder:decoder_failed' },
    }),
  ];
}

function wrongly(kind: string, calls: ModelCall[], rule: string, text = ''): MechanicsAnswer {
  return { kind, calls, text, cut: false, expect: { verdict: 'wrong', rule } };
}

function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193);
  return value >>> 0;
}
