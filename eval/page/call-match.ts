/** Whether a call is the one a CallMatch describes: its name, the arguments it names, how it ended. */
import type { CallRecord } from './call-record';
import type { ArgMatch, CallMatch } from './expectation';
import { matchesText } from './text-match';

export function matchesCall(call: CallRecord, matcher: CallMatch): boolean {
  if (call.name !== matcher.name || call.outcome !== (matcher.outcome ?? 'ran')) return false;
  return holds(call.args, matcher.args ?? {}) || (!!matcher.orResult && holds(call.result, matcher.orResult));
}

/** Whether an object's fields match each of `matches` (`'*'`: any of its texts). */
function holds(value: unknown, matches: Record<string, ArgMatch>): boolean {
  const fields = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return Object.entries(matches).every(([key, match]) =>
    key === '*' ? matchesArg(Object.values(fields).filter(isText).join(' '), match) : matchesArg(fields[key], match),
  );
}

export function matchesArg(value: unknown, match: ArgMatch): boolean {
  if (typeof match === 'string') return isText(value) && matchesText(value, match);
  if ('absent' in match) return value === undefined || value === null || (isText(value) && !value.trim());
  if ('isOrAbsent' in match && (value === undefined || value === null)) return true;
  const expected = 'is' in match ? match.is : match.isOrAbsent;
  return isText(value) && typeof expected === 'string'
    ? value.trim().toLowerCase() === expected.toLowerCase()
    : value === expected;
}

/** A call as the transcript and the judge's reasons write it: add_todo({"text":"milk"}). */
export function describeCall(call: Pick<CallRecord, 'name' | 'args'>): string {
  return `${call.name}(${JSON.stringify(call.args ?? {})})`;
}

/** A CallMatch in words: add_todo(text ~ "milk"), sort_table(column = price, descending = false or absent). */
export function describeMatch(matcher: CallMatch): string {
  const args = Object.entries(matcher.args ?? {}).map(([key, match]) => {
    const name = key === '*' ? 'any argument' : key;
    if (typeof match === 'string') return `${name} ~ "${match}"`;
    if ('absent' in match) return `no ${name}`;
    if ('is' in match) return `${name} = ${JSON.stringify(match.is)}`;
    return `${name} = ${JSON.stringify(match.isOrAbsent)} or absent`;
  });
  const outcome = matcher.outcome && matcher.outcome !== 'ran' ? `, ${matcher.outcome}` : '';
  return `${matcher.name}(${args.join(', ')})${outcome}`;
}

const isText = (value: unknown): value is string => typeof value === 'string';
