/**
 * Real model outputs, collected with their expected calls from peers' parser
 * test suites (../shared/data/tool-parser-corpora/: vLLM, SGLang, llama.cpp, ollama; each case
 * names its file and test), run through the real path: a scripted { raw }
 * turn read by the same stream and readers as a web-llm model's text, in a
 * real worker via createAgent, with tools of the names and schemas the
 * source declares. Each case asserts which tools ran with which arguments,
 * how many calls were answered as unreadable, and (where pinned) the text.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import { createAgent, fromMCPTool, type Agent, type AgentEvent } from '../../src/index';
import { responses } from '../page/helpers';
import { hasSharedData, sharedDataPath } from '../shared-data';

interface CorpusCase {
  file: string;
  test: string;
  family: string;
  output: string;
  calls: { name: string; args: Record<string, unknown> }[];
  refused?: number;
  text?: string;
  sourceExpects?: string;
}

interface Corpus {
  source: string;
  tools: Record<string, Record<string, unknown>>;
  cases: CorpusCase[];
}

const corporaThere = hasSharedData('tool-parser-corpora');
const corpora: Corpus[] = corporaThere
  ? await Promise.all(
      ['vllm', 'sglang', 'llama-cpp', 'ollama'].map(
        async (name) =>
          JSON.parse(await commands.readFile(sharedDataPath('tool-parser-corpora', `${name}.json`))) as Corpus,
      ),
    )
  : [];

// Shown as skipped, never as passed, when the data is not there.
test.skipIf(!corporaThere)(
  'all 183 recorded outputs of the four peers are read (../shared/data/tool-parser-corpora/)',
  () => {
    expect(corpora.map((corpus) => corpus.cases.length)).toEqual([100, 23, 30, 30]);
  },
);

for (const corpus of corpora) {
  describe(`outputs from ${corpus.source}'s tests`, () => {
    const ran: { name: string; args: unknown }[] = [];
    let agent: Agent;

    beforeAll(async () => {
      const tools = Object.entries(corpus.tools).map(([name, inputSchema]) =>
        fromMCPTool(
          { name, description: `The ${name} tool of ${corpus.source}'s tests.`, inputSchema },
          (args) => {
            ran.push({ name, args });
            return 'ok';
          },
          { needsApproval: false },
        ),
      );
      agent = await createAgent({
        model: {
          engine: 'scripted',
          turns: corpus.cases.map((example) => ({ raw: example.output })),
          contextWindow: 1_000_000,
        },
        tools,
        storage: 'memory',
        // Each case is one model step: once its calls are answered, the step after them is answered here.
        callbacks: { beforeModel: (request) => (request.messages.at(-1)?.role === 'tool' ? 'Done.' : undefined) },
      });
    });

    afterAll(async () => {
      await agent?.close();
    });

    for (const example of corpus.cases) {
      test(`${example.family}: ${example.test}`, async () => {
        ran.length = 0;
        const { events } = await agent.send(`corpus case ${example.test}`);
        expect(ran).toEqual(example.calls.map((call) => ({ name: call.name, args: call.args })));
        const refused = responses(events).filter((response) => response.error).length;
        expect(refused).toBe(example.refused ?? 0);
        if (example.text !== undefined) expect(firstAnswer(events).trim()).toBe(example.text.trim());
      });
    }
  });
}

/** What the model said in the case's own step (later steps are answered by the callback). */
function firstAnswer(events: AgentEvent[]): string {
  const model = events.find((event) => event.content?.role === 'model');
  return (model?.content?.parts ?? []).map((part) => ('text' in part ? part.text : '')).join('');
}
