// eval.html: a person picks a model, arms, categories and a sample size, starts, and watches the table
// fill in as each case is judged; then exports the run as JSON. The run is npm run eval's (eval/run).
import { describeModel } from '../../eval/arms/arm';
import { unavailableArms, runEval } from '../../eval/run/run-eval';
import { pickCases } from '../../eval/bfcl/pick-cases';
import type { CaseResult } from '../../eval/run/case-result';
import { bundledFiles, pickedFiles, type BfclFiles } from './bfcl-files';
import { showBfcl } from './bfcl-view';
import { exportResults } from './export-results';
import { showCase, showResult, showState } from './live-view';
import { clearLog, logResult } from './log-view';
import { buildForm, readForm, type Setup } from './setup-form';
import { showSummary } from './summary-view';

const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

let last: { setup: Setup; results: CaseResult[]; startedAt: Date } | undefined;
let stopping: AbortController | undefined;
/** BFCL's files: those the page was served or built with, until the visitor picks a folder. */
let bfcl: BfclFiles | undefined = bundledFiles();

buildForm();
showBfcl(bfcl);
$<HTMLInputElement>('#bfcl-folder').addEventListener('change', (event) => {
  const picked = [...((event.target as HTMLInputElement).files ?? [])];
  if (!picked.length) return;
  const folder = picked[0]!.webkitRelativePath.split('/')[0] || 'files';
  bfcl = pickedFiles(picked, folder);
  showBfcl(bfcl);
  refuse('');
});

$('#setup').addEventListener('submit', (event) => {
  event.preventDefault();
  void start();
});
$('#stop').addEventListener('click', () => stopping?.abort());
$('#export').addEventListener('click', () => last && exportResults(last.setup, last.results, last.startedAt));

async function start(): Promise<void> {
  const setup = readForm();
  if ('problem' in setup) return refuse(setup.problem);
  const files = bfcl;
  if (!files?.categories.length) return refuse("Choose the folder of BFCL's data first.");
  const lacking = setup.categories.filter((category) => !files.categories.includes(category));
  if (lacking.length) return refuse(`BFCL's files for ${lacking.join(', ')} are not in ${files.from}.`);
  const refused = unavailableArms(setup.arms, setup.model);
  if (refused.length) return refuse(`These arms cannot run this model here yet:\n${refused.join('\n')}`);
  refuse('');
  stopping = new AbortController();
  const results: CaseResult[] = [];
  last = { setup, results, startedAt: new Date() };
  running(true);
  clearLog();
  showSummary(results);
  showState('running', 'Reading BFCL…');
  $('#run-label').textContent =
    `${describeModel(setup.model)} · ${setup.limit} cases per category, seed “${setup.seed}” · ${setup.arms.map((arm) => arm.label).join(', ')}`;
  try {
    const cases = await pickCases(setup, files.read);
    const total = cases.length * setup.arms.length;
    const run = runEval(
      { cases, arms: setup.arms, model: setup.model, seed: setup.seed, maxTokens: setup.maxTokens },
      {
        signal: stopping.signal,
        onCase: showCase,
        // Each arm starts its agent once; a model loading (from the network or the cache) says so meanwhile.
        onModelProgress: (progress) => progress.progress < 1 && showState('running', progress.text),
      },
    );
    for await (const result of run) {
      results.push(result);
      showResult(result, results.length, total, tokensPerSecond(setup, results));
      showSummary(results);
      logResult(result);
    }
    const stopped = stopping.signal.aborted;
    showState(
      stopped ? 'stopped' : 'done',
      `${stopped ? 'Stopped after' : 'Done:'} ${results.length} of ${total} judged.`,
    );
  } catch (error) {
    showState('failed', error instanceof Error ? error.message : String(error));
  } finally {
    running(false);
  }
}

/** Tokens the model wrote per second of its steps, over the run; none without a model. */
function tokensPerSecond(setup: Setup, results: readonly CaseResult[]): number | undefined {
  if (setup.model.kind === 'mechanics') return undefined;
  const timed = results.filter((result) => result.completionTokens !== undefined && result.seconds > 0);
  const seconds = timed.reduce((sum, result) => sum + result.seconds, 0);
  return seconds ? timed.reduce((sum, result) => sum + result.completionTokens!, 0) / seconds : undefined;
}

function running(on: boolean): void {
  $('#stop').hidden = !on;
  $<HTMLButtonElement>('#export').disabled = on || !last?.results.length;
  for (const field of document.querySelectorAll<HTMLInputElement>('#setup input, #setup select')) field.disabled = on;
  // Start, and the categories whose files are missing, as BFCL's files allow.
  if (!on) showBfcl(bfcl);
  else $<HTMLButtonElement>('#start').disabled = true;
}

function refuse(message: string): void {
  $('#refusal').hidden = !message;
  $('#refusal').textContent = message;
}
