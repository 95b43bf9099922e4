/**
 * A visitor's conversation with a real instruction-tuned model, through createAgent (the real worker, the
 * model's own chat template, the loop), on the four-tool to-do page the real-model tests use: six requests
 * in one session, printed as a transcript (each request, its calls with their arguments, the reply, how the
 * run ended and its time). `npm run bench -- --only=conversation [--model=0.5b|1.5b]`; the 0.5B by default.
 *
 * Rows: seconds per request (the first one cold: the whole prompt read), prompt tokens the model read per
 * step and how many of them llama.cpp had cached, and how many requests got what they asked for (the right
 * tool, arguments that name it, a reply in words, no call made twice). Then a new session in the same agent
 * (openSession, as the demo's New session does) and one request there.
 *
 * `--warmup=1`: as the demo runs it, the prompt's constant part is read ahead (agent.warmup()) once the
 * model has loaded and again after openSession(), before the first request of each session.
 */
import { createAgent, type AgentEvent } from '../src/index';
import { exchangeOf, todoPage, transcript, type Exchange } from '../test/model/wllama/todo-page';
import { pageOption, summarize, type BenchRow, type BenchSuite } from './harness';
import { chosenModel } from './raw-wllama';

/** The requests, and what each one owes the visitor. */
const REQUESTS: {
  request: string;
  expect: (exchange: Exchange, page: ReturnType<typeof todoPage>['page']) => boolean;
}[] = [
  {
    request: 'Remember to buy milk',
    expect: (e, page) => only(e, 'add_todo') && page.todos.some((todo) => /milk/i.test(todo.text)),
  },
  { request: 'hello, who are you?', expect: (e) => e.calls.length === 0 },
  {
    request: 'Also add call the bank to my list',
    expect: (e, page) => only(e, 'add_todo') && /bank/i.test(page.todos.at(-1)?.text ?? ''),
  },
  {
    request: 'What is on my list?',
    // Listing first, or answering from what this session already did: either way the reply names both.
    expect: (e) =>
      e.calls.every((call) => call.name === 'list_todos') && /milk/i.test(e.reply) && /bank/i.test(e.reply),
  },
  {
    request: 'Mark the milk as done',
    expect: (e, page) => only(e, 'complete_todo') && page.todos.find((todo) => /milk/i.test(todo.text))?.done === true,
  },
  { request: 'Switch to dark mode please', expect: (e, page) => only(e, 'set_theme') && page.theme === 'dark' },
];

const only = (exchange: Exchange, name: string) =>
  exchange.calls.length > 0 && exchange.calls.every((call) => call.name === name && !call.error);
const WORDS = /^[\p{L}\p{N}]/u;

const suite: BenchSuite = async () => {
  const { choice, url, ...model } = chosenModel();
  if (!(await fetch(url, { method: 'HEAD' })).ok)
    return [
      {
        group: 'conversation',
        name: `${model.label} missing: run scripts/fetch-model.sh${choice === '0.5b' ? '' : ` ${choice}`}`,
        median: 0,
        unit: 'ms',
      },
    ];
  // --requests=1,3,4: only these of the six (1-based), for a quick look at a change.
  const picked = pageOption('requests')?.split(',').map(Number);
  const asked = picked ? REQUESTS.filter((_, i) => picked.includes(i + 1)) : REQUESTS;
  const { page, tools } = todoPage();
  const loadStart = performance.now();
  const agent = await createAgent({
    model: { engine: 'wllama', url },
    instructions: 'You help the visitor with this page.',
    tools,
    storage: 'memory',
    maxSteps: 4,
  });
  const loadMs = performance.now() - loadStart;
  const warm = pageOption('warmup') === '1';
  const warmups: number[] = [];
  const readAhead = async () => {
    if (!warm) return;
    const result = await agent.warmup();
    warmups.push(result.ms);
    console.info(
      `bench: conversation: warmup ${result.status}: ${result.promptTokens} tokens (${result.prefilledTokens} read, ${result.cachedTokens} cached) in ${(result.ms / 1000).toFixed(1)} s`,
    );
  };
  await readAhead();
  const exchanges: Exchange[] = [];
  const steps: { prompt: number; cached: number }[] = [];
  let kept = 0;
  let newSession: Exchange | undefined;
  try {
    for (const { request, expect } of asked) {
      const t0 = performance.now();
      const { events, text } = await agent.send(request);
      const exchange = exchangeOf(request, events, (performance.now() - t0) / 1000, text);
      exchanges.push(exchange);
      for (const event of events as AgentEvent[])
        if (event.content?.role === 'model' && event.usage)
          steps.push({ prompt: event.usage.promptTokens, cached: event.usage.cachedPromptTokens ?? 0 });
      const made = exchange.calls.map((call) => JSON.stringify([call.name, call.args]));
      const good =
        exchange.endReason === 'answer' &&
        WORDS.test(exchange.reply) &&
        new Set(made).size === made.length &&
        expect(exchange, page);
      if (good) kept++;
      console.info(
        `bench: conversation: ${good ? '✓' : '✗'} ${transcript('', [exchange]).split('\n').slice(1).join('\n')}`,
      );
    }
    // A new session in the same agent: the model stays loaded (and, with --warmup=1, the prefix is read again).
    await agent.openSession();
    await readAhead();
    const t0 = performance.now();
    const { events, text } = await agent.send('Remember to buy eggs');
    newSession = exchangeOf('(new session) Remember to buy eggs', events, (performance.now() - t0) / 1000, text);
    console.info(`bench: conversation: ${transcript('', [newSession]).split('\n').slice(1).join('\n')}`);
  } finally {
    await agent.close();
  }
  const how = `1 thread${warm ? ', prompt read ahead' : ''}`;
  console.info(`bench: conversation:\n${transcript(`${model.label}, one session, ${how}`, exchanges)}`);
  const seconds = exchanges.map((exchange) => exchange.seconds * 1000);
  const rows: BenchRow[] = [
    { group: 'conversation', name: `${model.label}: load (createAgent)`, median: loadMs, unit: 'ms' },
    {
      group: 'conversation',
      name: `${model.label}: first request (${warm ? 'after the prefix was read ahead' : 'cold prompt'})`,
      median: seconds[0]!,
      unit: 'ms',
      ...(warm && { note: `read ahead in ${(warmups[0]! / 1000).toFixed(1)} s before it` }),
    },
    {
      group: 'conversation',
      name: `${model.label}: later requests`,
      ...summarize(seconds.slice(1)),
      unit: 'ms',
      note: `${seconds.length - 1} requests`,
    },
    {
      group: 'conversation',
      name: `${model.label}: prompt tokens per step`,
      ...summarize(steps.map((step) => step.prompt)),
      unit: 'tokens',
      note: `${steps.length} steps`,
    },
    {
      group: 'conversation',
      name: `${model.label}: prompt tokens read anew per step (not cached)`,
      ...summarize(steps.map((step) => step.prompt - step.cached)),
      unit: 'tokens',
    },
    {
      group: 'conversation',
      name: `${model.label}: requests answered as asked`,
      median: (100 * kept) / asked.length,
      unit: '%',
      note: `${kept} of ${asked.length}: the right tool, a reply in words, no call twice`,
    },
  ];
  if (newSession)
    rows.push({
      group: 'conversation',
      name: `${model.label}: a new session's first request (openSession${warm ? ', read ahead' : ''})`,
      median: newSession.seconds * 1000,
      unit: 'ms',
      note: `${newSession.calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(', ') || 'no call'}${warm ? `; read ahead in ${((warmups[1] ?? NaN) / 1000).toFixed(1)} s before it` : ''}`,
    });
  return rows;
};

export default suite;
