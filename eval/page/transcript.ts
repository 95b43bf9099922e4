/**
 * A page-suite run as its conversations read, for a closing note: per arm and
 * conversation, each request as the visitor typed it, the calls with their
 * arguments and how each ended, the reply, the seconds it took, and the
 * verdict with its reasons.
 */
import type { StepDecision } from '../../src/session/event';
import { describeCall } from './call-match';
import type { PageResult } from './page-result';
import { latestResults } from './page-summary';

export function formatTranscript(all: readonly PageResult[]): string {
  const results = latestResults(all);
  const out: string[] = [];
  const arms = [...new Set(results.map((result) => result.arm))];
  for (const arm of arms) {
    const own = results.filter((result) => result.arm === arm);
    out.push(`## ${arm} (${own[0]!.model})`, '');
    for (const conversation of [...new Set(own.map((result) => result.conversation))]) {
      const requests = own
        .filter((result) => result.conversation === conversation)
        .sort((a, b) => requestNumber(a) - requestNumber(b));
      const right = requests.filter((result) => result.verdict === 'correct').length;
      out.push(`### ${conversation}: ${right} of ${requests.length} right`, '');
      for (const result of requests) out.push(...requestLines(result), '');
    }
  }
  return out.join('\n').trimEnd() + '\n';
}

function requestLines(result: PageResult): string[] {
  const lines = [`${requestNumber(result)}. > ${result.request}`];
  for (const decision of result.decisions ?? []) lines.push(`   - (decided: ${describeDecision(decision)})`);
  for (const call of result.calls) {
    const ended =
      call.outcome === 'ran' ? `→ ${JSON.stringify(call.result)}` : `${call.outcome}: ${call.error ?? ''}`.trim();
    lines.push(`   - ${describeCall(call)} ${ended}`);
  }
  for (const approval of result.approvals)
    lines.push(`   - (the page asked to approve ${approval.name}: ${approval.granted ? 'yes' : 'no'})`);
  for (const claimed of result.replacedClaims ?? [])
    lines.push(`   - (the runtime replaced a reply that claimed: "${claimed}")`);
  const reply = result.reply.trim() ? result.reply.trim().replace(/\n/g, '\n     ') : '(no words)';
  lines.push(`   reply: ${reply}`);
  const ended = result.endReason && result.endReason !== 'answer' ? `, ended: ${result.endReason}` : '';
  const verdict = result.verdict === 'correct' ? 'right' : `${result.verdict}: ${result.why.join('; ')}`;
  const read =
    result.prefilledTokens === undefined
      ? ''
      : ` (read ${result.prefilledTokens} of ${result.promptTokens} prompt tokens)`;
  lines.push(`   ${result.seconds.toFixed(1)} s${read}${ended} · ${verdict}`);
  return lines;
}

const requestNumber = (result: PageResult) => Number(result.id.split('/').pop());

/** "a call of add_todo, by the request asking for it", "words, by the model's odds of a call 0.12". */
function describeDecision(decision: StepDecision): string {
  const held =
    decision.held === 'call' ? `a call${decision.tools?.length ? ` of ${decision.tools.join(' or ')}` : ''}` : 'words';
  const by = {
    asked: 'the request asking for it',
    values: 'a value of the request that a tool takes',
    'goes-on': 'the request going on from the one before',
    reads: 'the question naming what a tool reads',
    words: 'the request naming nothing a tool has',
    question: 'the request asking what was done',
    chance: `the model's odds of a call ${decision.chance?.toFixed(2) ?? ''}`.trim(),
    claim: `the reply claiming "${decision.claimed ?? ''}"`,
  }[decision.by];
  return `${held}, by ${by}`;
}
