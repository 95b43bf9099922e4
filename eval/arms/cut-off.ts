/** A model's output cut off before its end (a mechanics answer that must not be read as a call). */
export function cutOff(output: string): string {
  return output.slice(0, Math.max(1, Math.floor(output.length * 0.6)));
}
