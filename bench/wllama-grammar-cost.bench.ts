/**
 * What our grammar costs a reply in words on the CPU model (Qwen2.5-Coder-0.5B-Instruct by default,
 * `--model=1.5b|gemma`), on the threads a page gets here by default: llama.cpp's decode speed (its own
 * predicted_n / predicted_ms) for the same prompt, read once and then cached, written three ways in turns:
 *
 * - no grammar (raw wllama as a page would run it);
 * - the grammar of a step that may call or answer (a call, or words from the first token: wordsOrCall);
 * - the grammar of a step that answers in words (WORDS_GBNF, the step after the run's last round of calls).
 *
 * The request asks for words ("hello, who are you?" with the page's tools), so that each way writes a reply.
 */
import type { ModelRequest } from '../src/model/engine';
import { WllamaEngine } from '../src/model/engines/wllama/wllama-engine';
import { threadsFor } from '../src/model/engines/wllama/wllama-environment';
import { toWllamaRequest, type CompletionParams } from '../src/model/engines/wllama/wllama-request';
import type { PromptWriter } from '../src/model/engines/wllama/wllama-prompt';
import type { ToolFormat } from '../src/model/formats/tool-format';
import { pageInstructions, pageTools } from '../test/model/wllama/page-requests';
import { pageOption, summarize, type BenchRow, type BenchSuite } from './harness';
import { chosenModel, rawCompletion, rawWllama } from './raw-wllama';

const { file: FILE, url: MODEL } = chosenModel();
const SAMPLES = Number(pageOption('samples') ?? 3);
const TOKENS = 48;

const suite: BenchSuite = async () => {
  if (!(await fetch(MODEL, { method: 'HEAD' })).ok)
    return [{ group: 'wllama', name: `${FILE} missing: run scripts/fetch-model.sh`, median: 0, unit: 'ms' }];
  const log = (what: string) => console.info(`bench: grammar cost: ${what}`);
  const { threads } = threadsFor();
  // Our engine only writes the prompt and the step's grammar here; raw wllama runs every completion.
  const model = new WllamaEngine({ urls: [MODEL], contextWindow: 2048, threads: 1 });
  await model.load();
  const inner = model as unknown as { format: ToolFormat; prompt: PromptWriter };
  const request: ModelRequest = {
    messages: [
      { role: 'system', content: pageInstructions },
      { role: 'user', content: 'hello, who are you? Tell me what you can do on this page.' },
    ],
    tools: pageTools,
    toolChoice: 'auto',
    sampling: { maxTokens: TOKENS },
  };
  const plan = (answers: boolean) =>
    toWllamaRequest(answers ? { ...request, allowedTools: [] } : request, {
      format: inner.format,
      prompt: inner.prompt,
      contextWindow: 2048,
      temperature: 0,
    });
  const mayCall = plan(false);
  const answers = plan(true);
  await model.dispose();
  if (!mayCall.params.grammar || !answers.params.grammar) throw new Error('a step with tools should have a grammar');
  const grammarOf = ({ grammar, grammar_lazy, grammar_triggers, preserved_tokens }: CompletionParams) => ({
    grammar,
    grammar_lazy,
    grammar_triggers,
    preserved_tokens,
  });
  const ways = {
    none: {},
    'may call or answer (wordsOrCall)': grammarOf(mayCall.params),
    'answers in words (WORDS_GBNF)': grammarOf(answers.params),
  };

  const raw = await rawWllama(MODEL, threads);
  // The prompt is read once; each sample then finds it in the cache and only decodes.
  for await (const _ of await rawCompletion(raw, mayCall.prompt, { n_predict: 0 }));
  const speeds = new Map<string, number[]>(Object.keys(ways).map((way) => [way, []]));
  const texts = new Map<string, string>();
  for (let i = 0; i < SAMPLES; i++)
    for (const [way, grammar] of Object.entries(ways)) {
      log(`sample ${i + 1}: ${way}`);
      let text = '';
      let timings: { predicted_n?: number; predicted_ms?: number } = {};
      for await (const chunk of await rawCompletion(raw, mayCall.prompt, {
        n_predict: TOKENS,
        stop: mayCall.params.stop,
        timings_per_token: true,
        ...grammar,
      })) {
        text += chunk.choices?.[0]?.text ?? '';
        if (chunk.timings) timings = chunk.timings;
      }
      speeds.get(way)!.push(((timings.predicted_n ?? 0) / (timings.predicted_ms ?? NaN)) * 1000);
      texts.set(way, text);
    }
  await raw.exit();

  const free = summarize(speeds.get('none')!).median;
  return Object.keys(ways)
    .filter((way) => way !== 'none')
    .map((way): BenchRow => ({
      group: 'wllama',
      name: `decode of a reply in words, ${FILE}, ${threads} thread${threads > 1 ? 's' : ''}, under our grammar: ${way} (tokens/s)`,
      median: summarize(speeds.get(way)!).median,
      unit: 'tokens',
      peer: { name: 'no grammar', median: free },
      note: `${TOKENS} tokens, ${SAMPLES} samples in turns; wrote ${JSON.stringify(texts.get(way)!.slice(0, 50))} (no grammar: ${JSON.stringify(texts.get('none')!.slice(0, 50))})`,
    }));
};

export default suite;
