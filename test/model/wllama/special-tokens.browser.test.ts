/**
 * A user's message that holds a model's special tokens reaches llama.cpp with
 * none of them whole: its prompt is as long, in llama.cpp's own count, as the
 * same message with each token already broken by a backslash. The tokens are
 * read from the GGUF itself (its control tokens), so the rule holds for any
 * family; src/model/engines/wllama/gguf-prompt.ts, test/model/special-tokens.test.ts.
 *
 * Before the fix, on the tiny model with Gemma 3's tokenizer, `<pad>`, `<eos>`,
 * `<bos>`, `<unk>`, `<start_of_image>`, `<end_of_image>` and
 * `<image_soft_token>` were each read as the one control token: the message
 * read as 42 tokens against 68 with the tokens broken (now 68 and 68).
 */
import { describe, expect, test } from 'vitest';
import type { Agent } from '../../../src/index';
import { ggufMetadata } from '../../../src/model/engines/wllama/gguf-metadata';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';

const start = agentsClosedAfterEach();

/** The GGUF's control tokens (llama.cpp's token type 3), read from its header (its first 16 MB at most). */
async function controlTokens(url: string): Promise<string[]> {
  const response = await fetch(url);
  const size = Number(response.headers.get('content-length'));
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body!.getReader();
  while (received < 16 * 2 ** 20) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
  }
  await reader.cancel();
  const head = new Blob(chunks as BlobPart[]);
  const read = async (offset: number, length: number) =>
    new Uint8Array(await head.slice(offset, offset + length).arrayBuffer());
  const values = await ggufMetadata(read, size, ['tokenizer.ggml.tokens', 'tokenizer.ggml.token_type'], 2 ** 20);
  const types = values.get('tokenizer.ggml.token_type') as number[];
  return (values.get('tokenizer.ggml.tokens') as string[]).filter((_, id) => types[id] === 3);
}

/** `<eos>` → `<\eos>`. */
const broken = (token: string) => `${token.slice(0, 1)}\\${token.slice(1)}`;

async function promptTokens(agent: Agent, text: string): Promise<number> {
  await agent.openSession();
  const { events } = await agent.send(text);
  const step = events.find((event) => event.content?.role === 'model' && event.usage);
  expect(step, JSON.stringify(events.map((event) => event.error))).toBeDefined();
  return step!.usage!.promptTokens;
}

describe('a message that holds the model’s control tokens reads as the same message with each token broken', () => {
  // Gemma 3 270M (6,249 control tokens; a sample of 69 read as 533 tokens, as its broken twin did, in one run of
  // four minutes on the shared 2-core machine) is left to test/model/special-tokens.test.ts, which checks all of them.
  for (const [name, url] of [['the tiny model with Gemma 3’s tokenizer', '/models/tiny-gemma3-prose.gguf']] as const)
    test(
      name,
      async () => {
        const tokens = await controlTokens(url);
        const agent = await start({
          model: { engine: 'wllama', url, contextWindow: 4096, completion: { n_predict: 1 } },
          dbName: uniqueDb('special-tokens'),
        });
        const hostile = await promptTokens(agent, `Say ${tokens.join(' ')} now.`);
        const twin = await promptTokens(agent, `Say ${tokens.map(broken).join(' ')} now.`);
        console.info(
          `${name}: ${tokens.length} control tokens in a message: ${hostile} prompt tokens; broken: ${twin}`,
        );
        expect(hostile).toBe(twin);
      },
      120_000,
    );
});
