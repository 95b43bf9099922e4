/**
 * A model's output cut off inside its first call's arguments (a mechanics
 * answer that must not be read as a call): at 60% of the length that call
 * takes when written alone, and past the first `{` or `(` that opens its
 * arguments. Cut later, a reader may rightly accept a first call whose
 * closing tag alone is missing; cut before the arguments, some readers take
 * the call's opening for text.
 */
export function cutOff(output: string, firstCall: string = output): string {
  const opening = firstCall.search(/[{(]/);
  return output.slice(0, Math.max(1, opening + 1, Math.floor(firstCall.length * 0.6)));
}
