// The tools a request's words point to, held to BFCL's answers: over every case of the categories that offer
// several functions, how often the narrowed offer still holds each function the answer calls, and how often it is
// narrowed to exactly those. No model: a loss here is a case no model could get right through the layer.
import { describe, expect, test } from 'vitest';
import { fittingTools } from '../../../src/flow/decisions/fitting-tools';
import type { BfclCategory } from '../../../eval/bfcl/categories';
import { hasSharedData } from '../../shared-data';
import { bfclDecisionCases } from './bfcl-cases';

function tally(category: BfclCategory) {
  const cases = bfclDecisionCases(category);
  let kept = 0;
  let exact = 0;
  let offered = 0;
  let fitting = 0;
  for (const { request, tools, wanted } of cases) {
    const fit = fittingTools(request, tools);
    const holds = wanted.every((name) => fit.includes(name));
    if (holds) kept++;
    if (holds && fit.length === new Set(wanted).size) exact++;
    offered += tools.length;
    fitting += fit.length;
  }
  const share = (n: number) => n / cases.length;
  console.info(
    `${category}: ${cases.length} cases; the answer's tools kept in ${kept} (${(100 * share(kept)).toFixed(1)}%), ` +
      `exactly them in ${exact} (${(100 * share(exact)).toFixed(1)}%); tools offered ${fitting} of ${offered}`,
  );
  return { kept: share(kept), exact: share(exact), offered: fitting / offered };
}

describe.skipIf(!hasSharedData('bfcl'))("the tools a request's words point to, on BFCL's answers", () => {
  test('multiple: the right function is kept in nearly every case, and alone in most', () => {
    const { kept, exact } = tally('multiple');
    expect(kept).toBeGreaterThanOrEqual(0.99);
    expect(exact).toBeGreaterThanOrEqual(0.85);
  });

  test('live_multiple (a page of many tools): the right one kept in 95%, from about a third of the tools', () => {
    const { kept, offered } = tally('live_multiple');
    expect(kept).toBeGreaterThanOrEqual(0.94);
    expect(offered).toBeLessThan(0.4);
  });

  test('parallel_multiple (several functions asked at once): each part keeps its own', () => {
    expect(tally('parallel_multiple').kept).toBeGreaterThanOrEqual(0.94);
  });
});
