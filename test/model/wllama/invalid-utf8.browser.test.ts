/**
 * A model's bytes never fail a run. llama.cpp sends text to JavaScript as
 * JSON, and wllama's glue refuses a piece that is not UTF-8 (the step used to
 * end model-failed); real models split characters across byte tokens too. Here
 * random-weight models that write single bytes (scripts/tiny-gguf.mjs,
 * tiny-<family>-bytes.gguf: lone continuation bytes, surrogates, overlong
 * forms, cut characters) run step after step, with and without tools: every
 * run ends with an answer or a call, and what was not UTF-8 is text with
 * U+FFFD replacement characters.
 */
import { describe, expect, test } from 'vitest';
import { defineTool, z, type AgentEvent } from '../../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';

const start = agentsClosedAfterEach();

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const addNote = defineTool({
  name: 'add_note',
  description: 'Write a note on this page.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => ({ saved: text.length }),
});

/** Tokens a step may write. */
const LIMIT = 48;

const modelSteps = (events: AgentEvent[]) =>
  events.filter((event) => event.content?.role === 'model' && !event.partial);

// SentencePiece's byte tokens (Gemma), and byte-level BPE's one-byte tokens (Qwen2.5).
describe.each(['gemma2', 'qwen2_5'])('a model that writes bytes (%s’s vocabulary)', (family) => {
  test.each([
    ['without tools', []],
    ['with a tool', [addNote]],
  ])(
    '%s: no step fails, and bytes that are not UTF-8 become U+FFFD',
    async (_, tools) => {
      const agent = await start({
        model: {
          engine: 'wllama',
          url: `/models/tiny-${family}-bytes.gguf`,
          toolFormat: family === 'gemma2' ? 'gemma-tool-code' : 'hermes',
          contextWindow: 4096,
          temperature: 1,
          seed: 11,
          completion: { top_k: 0, top_p: 1, min_p: 0, n_predict: LIMIT },
        },
        tools,
        maxSteps: 2,
        dbName: uniqueDb(`utf8-${family}`),
      });
      const ends: string[] = [];
      const texts: string[] = [];
      const notices: string[] = [];
      for (let i = 0; i < 8; i++) {
        const { events, error } = await agent.send(`Write something, ${i}.`);
        ends.push(error ? `${error.code}: ${error.message}` : String(events.at(-1)?.endReason));
        for (const step of modelSteps(events)) {
          // Going on after a lost piece keeps to the step's token limit.
          expect(step.usage!.completionTokens).toBeLessThanOrEqual(LIMIT);
          for (const part of step.content!.parts) if ('text' in part) texts.push(part.text);
          for (const notice of step.notices ?? []) notices.push(notice.code);
        }
      }
      // Each run ends as a run of a model that cannot be understood does: an answer, or calls until maxSteps.
      for (const end of ends) expect(end).toMatch(/^(answer|max-steps:)/);
      const written = texts.join('');
      expect(written).toContain('\ufffd');
      expect(LONE_SURROGATE.test(written)).toBe(false);
      expect(notices).toContain('invalid-utf8');
    },
    240_000,
  );
});
