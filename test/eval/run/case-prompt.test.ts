// A BFCL case's messages as an agent's instructions and the run's text.
import { expect, test } from 'vitest';
import { casePrompt } from '../../../eval/run/case-prompt';
import type { BfclCase, BfclMessage } from '../../../eval/bfcl/types';

const withMessages = (messages: BfclMessage[]): BfclCase => ({
  id: 'live_irrelevance_1',
  category: 'live_irrelevance',
  messages,
  functions: [],
});

test('system messages are the instructions, the last user message the text', () => {
  expect(
    casePrompt(
      withMessages([
        { role: 'system', content: 'You are a travel agent.' },
        { role: 'user', content: 'Book a flight to Oslo.' },
      ]),
    ),
  ).toEqual({ instructions: 'You are a travel agent.', text: 'Book a flight to Oslo.' });
});

test('earlier turns of the case come first, each with its role', () => {
  const prompt = casePrompt(
    withMessages([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      { role: 'user', content: 'What is 2 + 2?' },
    ]),
  );
  expect(prompt).toEqual({
    instructions: '',
    text: 'user: Hi\nassistant: Hello! How can I help?\nuser: What is 2 + 2?',
  });
});

test('a case that does not end with the user is refused', () => {
  expect(() => casePrompt(withMessages([{ role: 'assistant', content: 'Hi' }]))).toThrow(/does not end with a user/);
});
