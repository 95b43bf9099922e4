// `npm run eval`: BFCL's single-turn categories through createAgent in headless Chromium (the real worker,
// formats and readers), served by vite; one JSON line per case and arm in eval-results/, a table at the end.
// With --suite=page, the page-task suite (eval/page/): conversations on the demo's tools, one session each, every
// request judged by the page's state and the reply; one JSON line per request and arm.
// Usage: npm run eval -- [--model=mechanics|<file or URL>.gguf|<web-llm id>] [--arms=ours,ours-no-grammar,native,fenced-json]
//                        [--categories=simple_python,…] [--limit=<cases per category>] [--seed=bfcl] [--out=eval-results]
//                        [--max-tokens=<per answer, every arm>] [--calls-per-step=one|any] [--threads=<llama.cpp's>]
//                        [--through=step|loop]   (each case as one model step, the default, or as a run through the
//                                                 agent's loop, where the decision layer acts: ours vs ours-before)
//        npm run eval -- --resume=<results.jsonl> [the same options]   (goes on with a run that was stopped: its file
//                                                                  grows, the cases it judged are not asked again)
//        npm run eval -- --cases=<id>[,<id>…] [--model, --arms, …]   (those cases only, in that order)
//        npm run eval -- --table=<results.jsonl>[,<more.jsonl>]   (the table of results already written)
//        npm run eval -- --kinds=<results.jsonl>   (each arm's wrong answers by kind, the cap read from its .run.json,
//                                                  beside what a free-decoding arm of the file wrote on those cases)
//        npm run eval -- --suite=page --model=<file or URL>.gguf [--arms=ours,ours-before,native]
//                        [--conversations=groceries,…] [--threads=…] [--calls-per-step=…] [--resume=<results.jsonl>]
//        npm run eval -- --transcript=<results.jsonl>   (a page-suite run's conversations: requests, calls, replies)
//        npm run eval -- --rejudge=<results.jsonl>   (a page-suite run judged again by today's judge, no model:
//                                                    <results>-rejudged.jsonl and its table)
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { cpus, tmpdir, totalmem } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { ensureChromium, chromiumArgs } from './chromium.mjs';
import { describeMissingSharedData, missingSharedData, sharedDataDir } from './shared-data.mjs';

const option = (name, fallback) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const root = resolve(import.meta.dirname, '..');
const seed = option('seed', 'bfcl');
const limit = option('limit');
const categories = option('categories');
const arms = option('arms', 'ours');
const outDir = resolve(root, option('out', 'eval-results'));
const maxTokens = option('max-tokens');
const callsPerStep = option('calls-per-step');
const threads = option('threads');
const resume = option('resume');
const cases = option('cases');
const suite = option('suite', 'bfcl');
const conversations = option('conversations');
const through = option('through');
let model = option('model', 'mechanics');

const resultsIn = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
/** What `use` makes of one of the eval's TypeScript modules, loaded into Node by vite. */
async function withEvalModule(path, use) {
  const server = await createServer({
    root,
    logLevel: 'error',
    // No HMR socket: a run's own server may hold its port meanwhile ("Port 24678 is already in use").
    server: { middlewareMode: true, ws: false },
    appType: 'custom',
  });
  try {
    return use(await server.ssrLoadModule(path));
  } finally {
    await server.close();
  }
}
/** The table of these results, by the runner's own summary (the page suite's for its lines). */
const tableOfResults = (results) =>
  results.some((result) => result.suite === 'page')
    ? withEvalModule('/eval/page/page-summary.ts', ({ summarizePage, formatPageTable }) =>
        formatPageTable(summarizePage(results.filter((result) => result.suite === 'page'))),
      )
    : withEvalModule('/eval/run/summary.ts', ({ summarize, formatTable }) => formatTable(summarize(results)));

const tableOf = option('table');
if (tableOf) {
  console.log(await tableOfResults(tableOf.split(',').flatMap(resultsIn)));
  process.exit(0);
}
const transcriptOf = option('transcript');
if (transcriptOf) {
  const results = transcriptOf.split(',').flatMap(resultsIn);
  if (!results.some((result) => result.suite === 'page'))
    fail(`${transcriptOf} holds no page-suite results: transcripts are of runs with --suite=page.`);
  console.log(
    await withEvalModule('/eval/page/transcript.ts', ({ formatTranscript }) =>
      formatTranscript(results.filter((result) => result.suite === 'page')),
    ),
  );
  process.exit(0);
}
const rejudgeOf = option('rejudge');
if (rejudgeOf) {
  const results = resultsIn(rejudgeOf).filter((result) => result.suite === 'page');
  if (!results.length) fail(`${rejudgeOf} holds no page-suite results: --rejudge is for runs with --suite=page.`);
  const again = await withEvalModule('/eval/page/rejudge.ts', ({ rejudge }) => rejudge(results));
  const out = rejudgeOf.replace(/\.jsonl$/, '') + '-rejudged.jsonl';
  writeFileSync(out, again.map((result) => `${JSON.stringify(result)}\n`).join(''));
  console.log(await tableOfResults(again));
  console.log(`\n${again.length} requests judged again by today's judge; results: ${out}`);
  process.exit(0);
}
const kindsOf = option('kinds');
if (kindsOf) {
  const results = resultsIn(kindsOf);
  const runFile = kindsOf.replace(/\.jsonl$/, '.run.json');
  const cap = existsSync(runFile) ? JSON.parse(readFileSync(runFile, 'utf8')).maxTokens : undefined;
  // The others' answers are held against a free-decoding arm's on the same cases, when the file has one.
  const unconstrained = ['ours-no-grammar', 'native'].find((arm) => results.some((result) => result.arm === arm));
  console.log(
    await withEvalModule('/eval/run/failure-kinds.ts', ({ failureKinds, formatFailureKinds }) =>
      formatFailureKinds(failureKinds(results, { maxTokens: cap, unconstrained }), results, unconstrained),
    ),
  );
  console.log(
    `\nA turn counts as cut when a call in it was not read and it wrote ${cap ?? 'its cap (none set)'} tokens.`,
  );
  process.exit(0);
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

if (!['bfcl', 'page'].includes(suite)) fail(`--suite=${suite}: use bfcl (the default) or page.`);
if (through !== undefined && !['step', 'loop'].includes(through))
  fail(`--through=${through}: use step (one model step a case, the default) or loop (a run through agent.send).`);
const pageSuite = suite === 'page';
if (pageSuite) {
  const bfclOnly = ['categories', 'limit', 'cases', 'seed', 'max-tokens', 'through'].filter(
    (name) => option(name) !== undefined,
  );
  if (bfclOnly.length)
    fail(`--suite=page takes no ${bfclOnly.map((name) => `--${name}`).join(', ')} (BFCL's options).`);
  if (model === 'mechanics' || model.startsWith('mechanics:'))
    fail(
      'The page suite needs a model: --model=<file or URL>.gguf or a web-llm id (its mechanics are tested on the scripted engine: test/eval/page/).',
    );
}
if (!pageSuite && missingSharedData().includes('bfcl')) {
  console.error(`BFCL's data is missing: ${describeMissingSharedData(['bfcl'])}`);
  process.exit(1);
}
if (!pageSuite && (model === 'mechanics' || model.startsWith('mechanics:')))
  console.warn('No model named (--model): this is the mechanics check, answers scripted from BFCL, no model runs.');

// A GGUF on this disk is served by the same server, from its own folder.
const allow = [root, sharedDataDir];
const local = model.replace(/^gguf:/, '');
if (/\.gguf$/i.test(local) && existsSync(local)) {
  allow.push(dirname(resolve(local)));
  model = `gguf:/@fs${resolve(local)}`;
}

const executablePath = ensureChromium();
// Cross-origin isolation lets llama.cpp run more than one thread.
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
const server = await createServer({
  root,
  logLevel: 'error',
  // No reloads: a run takes hours, and an edit to the repository meanwhile must not restart its page.
  server: { host: '127.0.0.1', port: 0, headers: isolation, fs: { allow }, hmr: false, watch: null },
});
await server.listen();
// A profile on disk, as a visitor's normal window has, not Playwright's in-memory one: there Cache Storage keeps no
// entry over 256 MiB and every arm downloads its GGUF into memory again, and with the 1.5B's 1.1 GB loaded by ours,
// native's download failed midway ("Cache.put() encountered a network error"). On disk one download serves each arm.
const profile = mkdtempSync(join(tmpdir(), 'inpage-agent-eval-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath,
  args: [...chromiumArgs, '--enable-unsafe-webgpu'],
  // A stop is ours to handle: the cases judged so far are tabled first (below).
  handleSIGINT: false,
  handleSIGTERM: false,
});

mkdirSync(outDir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const name = resume
  ? basename(resume, '.jsonl')
  : `${stamp}-${pageSuite ? 'page-' : ''}${basename(model.replace(/^\w+:/, '')).replace(/[^\w.-]+/g, '_')}-${arms.replace(/,/g, '+')}${through === 'loop' ? '-loop' : ''}`;
const linesPath = resume ? resolve(resume) : join(outDir, `${name}.jsonl`);
const runPath = linesPath.replace(/\.jsonl$/, '.run.json');
const options = {
  ...(pageSuite && { suite }),
  model,
  arms: arms.split(','),
  ...(pageSuite
    ? { conversations: conversations?.split(',') ?? 'all' }
    : cases
      ? { caseIds: cases.split(',') }
      : { categories: categories?.split(',') ?? 'all', limit: limit ? Number(limit) : 'all' }),
  ...(!pageSuite && { seed }),
  ...(maxTokens && { maxTokens: Number(maxTokens) }),
  ...(through === 'loop' && { through }),
  ...(callsPerStep && { callsPerStep }),
  ...(threads && { threads: Number(threads) }),
};
// A resumed run asks only what it has not judged, with the options it was started with.
const before = resume && existsSync(runPath) ? JSON.parse(readFileSync(runPath, 'utf8')) : undefined;
if (resume) {
  if (!existsSync(linesPath)) fail(`--resume names ${linesPath}, which does not exist.`);
  const differ =
    before && Object.keys(options).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(options[key]));
  if (differ?.length)
    fail(
      `--resume: this run was started with other ${differ.join(', ')} (${differ.map((key) => `${key}=${JSON.stringify(before[key])}`).join(', ')}); give the same options.`,
    );
}
const earlier = resume ? resultsIn(linesPath) : [];
const judged = earlier.filter((result) => result.verdict !== 'error').map((result) => `${result.id} ${result.arm}`);
const lines = createWriteStream(linesPath, { flags: resume ? 'a' : 'w' });
const started = performance.now();
// The code this session runs: HEAD when it starts (commits made while it runs are not in its page).
const commit = execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
let done;
let written = 0;
let page;
// Stopped (Ctrl-C, kill): the cases judged so far are kept and tabled, marked as a stopped run.
let stopped = false;
// Vite's dev server exits on SIGTERM by itself; its handler goes, ours closes the server after the table.
process.removeAllListeners('SIGTERM');
const stop = new Promise((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      // A second stop while the first writes the table ends the script at once.
      if (stopped) process.exit(130);
      stopped = true;
      resolve();
    });
});
try {
  page = browser.pages()[0] ?? (await browser.newPage());
  await page.addInitScript((keys) => (window.__evalJudged = keys), judged);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  let current = '';
  await page.exposeFunction('__evalProgress', ({ index, total, id, arm }) => {
    current = `[${index + 1}/${total}] ${id} · ${arm}`;
  });
  await page.exposeFunction('__evalReport', (result) => {
    lines.write(`${JSON.stringify(result)}\n`);
    written++;
    const why = result.verdict === 'correct' ? '' : ` (${result.rule ?? [result.why ?? ''].flat().join('; ')})`;
    // A page-suite line names its request; its progress may have moved on to the next already.
    const which = result.suite === 'page' ? `${current.split(']')[0]}] ${result.id} · ${result.arm}` : current;
    console.error(`${which}: ${result.verdict}${why}, ${result.seconds.toFixed(2)} s`);
  });
  const query = new URLSearchParams({
    ...(pageSuite && { suite }),
    ...(conversations && { conversations }),
    model,
    arms,
    seed,
    ...(limit && { limit }),
    ...(categories && { categories }),
    ...(cases && { cases }),
    ...(maxTokens && { maxTokens }),
    ...(through === 'loop' && { through }),
    ...(callsPerStep && { callsPerStep }),
    ...(threads && { threads }),
  });
  await page.goto(`${server.resolvedUrls.local[0]}eval/runner.html?${query}`);
  await Promise.race([page.waitForFunction(() => window.__evalDone, null, { timeout: 0, polling: 500 }), stop]);
  done = stopped ? await page.evaluate(() => window.__evalTable()) : await page.evaluate(() => window.__evalDone);
} finally {
  lines.end();
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  await server.close();
}
if (done.error) {
  console.error(done.error);
  // A run refused before its first case leaves no file behind.
  if (!written) rmSync(linesPath, { force: true });
  process.exit(1);
}
const wallSeconds = (performance.now() - started) / 1000;
// One entry per invocation: a resumed run's cases (requests, for the page suite) may come from several commits.
const session = {
  cases: done.cases,
  ...(stopped && { stopped: 'before its end: the table holds the cases judged until then' }),
  wallSeconds,
  commit,
  machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB`,
};
const all = resume ? resultsIn(linesPath) : undefined;
const table = all ? await tableOfResults(all) : done.table;
const run = { ...options, sessions: [...(before?.sessions ?? []), session], cases: all?.length ?? done.cases, table };
writeFileSync(runPath, `${JSON.stringify(run, null, 2)}\n`);
console.log(table);
console.log(
  `\n${done.cases} runs in ${wallSeconds.toFixed(1)} s${stopped ? ' (stopped)' : ''}${all ? ` (${all.length} in the file)` : ''}; results: ${linesPath}`,
);
