/**
 * The Wilson score interval of a proportion: where the true accuracy lies, with 95% confidence, given
 * `correct` of `cases`. Unlike p ± 1.96·√(p(1−p)/n) it stays inside [0, 1] and does not shrink to nothing
 * at 0 or n correct, which with the few cases a CPU can grade is most of the time.
 */
export function wilsonInterval(correct: number, cases: number, z = 1.96): [low: number, high: number] {
  if (cases === 0) return [0, 1];
  const p = correct / cases;
  const z2 = z * z;
  const scale = 1 + z2 / cases;
  const center = (p + z2 / (2 * cases)) / scale;
  const half = (z / scale) * Math.sqrt((p * (1 - p)) / cases + z2 / (4 * cases * cases));
  return [Math.max(0, center - half), Math.min(1, center + half)];
}
