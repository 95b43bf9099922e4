/**
 * A long session on llama.cpp reads each request once: every step prefills only what is new since the last
 * (the visitor's message and the turn's markup), by llama.cpp's own counts, also once the window is full and the
 * oldest turns leave the prompt. Without llama.cpp's cache reuse, the step after a trim read the whole
 * conversation again (the demo's 8th request waited for its history); with it, the turns still in the prompt
 * are found in the cache and shifted into place.
 */
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';

const start = agentsClosedAfterEach();

const requests = [
  'add milk to my list',
  'hello, who are you?',
  'put eggs and bread on it too',
  'what is on the list now?',
  'mark the milk as done',
  'switch to dark mode please',
  'thanks! what else can you do?',
  'remove the eggs',
  'add call the plumber tomorrow',
  'how many are left?',
];
/** Instructions of about 250 tokens: with messages of about 70 tokens, the 1,024-token window fills within ten requests. */
const INSTRUCTIONS = [
  'You help the visitor with this page.',
  ...Array.from({ length: 20 }, (_, i) => `Rule ${i + 1}: keep item ${i + 1} as the visitor wrote it.`),
].join('\n');
/** Each request says why, at length, as some visitors do. */
const REASON = ' I ask because the list on this page is the one my family reads each morning before school and work.';
/** A message (about 70 tokens), its turn's markup, the end of the turn before it and the model's short answer. */
const OWN_TOKENS = 100;

test('ten requests on a full window: each prefills only its own tokens, the trimmed ones too', async () => {
  const agent = await start({
    model: {
      engine: 'wllama',
      url: '/models/tiny-qwen2_5-prose.gguf',
      contextWindow: 1024,
      temperature: 0,
      completion: { n_predict: 16 },
    },
    instructions: INSTRUCTIONS,
    dbName: uniqueDb('session-prefill'),
  });
  const reads: { request: string; prompt: number; cached: number; prefilled: number }[] = [];
  for (const request of requests) {
    const { events, error } = await agent.send(request + REASON.repeat(3));
    expect(error).toBeUndefined();
    const step = events.find((event: AgentEvent) => event.content?.role === 'model' && !event.partial && event.usage)!;
    const { promptTokens, cachedPromptTokens = 0 } = step.usage!;
    reads.push({
      request,
      prompt: promptTokens,
      cached: cachedPromptTokens,
      prefilled: promptTokens - cachedPromptTokens,
    });
  }
  console.log(JSON.stringify(reads));
  // The window filled: a later prompt is shorter than an earlier one (the oldest turns left it).
  expect(reads.some((read, i) => i > 0 && read.prompt < reads[i - 1]!.prompt)).toBe(true);
  // The first request reads the instructions; every later one only itself.
  expect(reads.slice(1).filter((read) => read.prefilled > OWN_TOKENS)).toEqual([]);
}, 600_000);
