// Each case as it is judged, newest first: the verdict, the case, the arm, the calls, and why.
import type { CaseResult } from '../../eval/run/case-result';
import { callsText } from './live-view';

/** Enough to read; the export holds them all. */
const SHOWN = 200;

export function logResult(result: CaseResult): void {
  const item = document.createElement('li');
  item.dataset.verdict = result.verdict;
  const verdict = Object.assign(document.createElement('span'), { className: 'verdict', textContent: result.verdict });
  verdict.dataset.verdict = result.verdict;
  const calls = Object.assign(document.createElement('code'), {
    textContent: callsText(result.calls) || (result.unreadable ? 'unreadable' : 'no call'),
  });
  item.append(verdict, ` ${result.id} · ${result.arm} · `, calls);
  if (result.verdict !== 'correct') item.append(` — ${result.rule ?? ''} ${result.why ?? ''}`.trimEnd());
  const log = document.querySelector('#log')!;
  log.prepend(item);
  while (log.children.length > SHOWN) log.lastElementChild!.remove();
}

export function clearLog(): void {
  document.querySelector('#log')!.replaceChildren();
}
