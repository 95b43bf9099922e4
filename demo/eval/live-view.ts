// What the run is doing now: how far it is, the case and arm being run, what the model last called,
// the judge's verdict on it, and tokens per second over the run.
import type { Arm } from '../../eval/arms/arm';
import type { BfclCase, ModelCall } from '../../eval/bfcl/types';
import type { CaseResult } from '../../eval/run/case-result';

const $ = (selector: string) => document.querySelector<HTMLElement>(selector)!;

export type RunState = 'idle' | 'running' | 'done' | 'stopped' | 'failed';

export function showState(state: RunState, text: string): void {
  $('#progress').dataset.state = state;
  $('#progress-text').textContent = text;
}

export function showCase(testCase: BfclCase, arm: Arm, index: number, total: number): void {
  const bar = $('#progress-bar') as HTMLProgressElement;
  bar.max = total;
  bar.value = index;
  showState('running', `Case ${index + 1} of ${total}`);
  $('#current-case').textContent = `${testCase.id} · ${arm.label}`;
  const asked = testCase.messages.at(-1)?.content ?? '';
  $('#current-question').textContent = asked.length > 240 ? `${asked.slice(0, 237)}…` : asked;
}

export function showResult(result: CaseResult, done: number, total: number, tokensPerSecond?: number): void {
  const bar = $('#progress-bar') as HTMLProgressElement;
  bar.value = done;
  $('#last-calls').textContent = callsText(result.calls) || (result.unreadable ? 'unreadable' : 'no call');
  $('#last-verdict').textContent = verdictText(result);
  $('#tokens-per-second').textContent = tokensPerSecond === undefined ? 'n/a (no model)' : tokensPerSecond.toFixed(1);
  if (done === total) bar.value = total;
}

export function callsText(calls: readonly ModelCall[]): string {
  return calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(', ');
}

export function verdictText(result: CaseResult): string {
  return result.verdict === 'correct'
    ? 'correct'
    : `${result.verdict}: ${result.rule ?? ''} ${result.why ?? ''}`.trim();
}
