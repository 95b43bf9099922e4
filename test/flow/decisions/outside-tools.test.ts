import { describe, expect, test } from 'vitest';
import { outsideTools } from '../../../src/flow/decisions/outside-tools';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { pageTools } from './page-tools';
import { calledAddTodo } from './session-events';

const bmi: ToolDeclaration = {
  ...pageTools[0]!,
  name: 'determine_body_mass_index',
  description: 'Calculate body mass index given weight and height.',
  parameters: { type: 'object', properties: { weight: { type: 'number', description: 'Weight in kilograms' } } },
};

describe('a request no tool speaks of', () => {
  test('three words or more, none in any tool: no tool’s job', () => {
    expect(outsideTools('Who won the world series in 2018?', [bmi], [])).toBe(true);
    expect(outsideTools('Tell me some horror movies to watch tonight', pageTools, [])).toBe(true);
  });

  test('one word in a tool’s name, description or parameters is enough to leave it to the model', () => {
    expect(outsideTools('What is the body mass index of a 70 kg man?', [bmi], [])).toBe(false);
    expect(outsideTools('Find my weight class for boxing', [bmi], [])).toBe(false);
    expect(outsideTools('sort the products by price', pageTools, [])).toBe(false);
  });

  test('a terse request, or one in a conversation that has called tools, is left to the model', () => {
    expect(outsideTools('oh and eggs and bread too', pageTools, [])).toBe(false);
    expect(outsideTools('also pick up the dry cleaning', pageTools, [calledAddTodo])).toBe(false);
    expect(outsideTools('also pick up the dry cleaning', pageTools, [])).toBe(true);
  });

  test('a question about something no tool names wants words, however short and whenever asked', () => {
    expect(outsideTools('hello, who are you?', pageTools, [calledAddTodo])).toBe(true);
    expect(outsideTools('did that work?', pageTools, [calledAddTodo])).toBe(true);
    expect(outsideTools('who are you?', pageTools, [])).toBe(true);
    expect(outsideTools("what's the capital of Australia?", pageTools, [])).toBe(true);
  });

  test('a greeting, thanks or goodbye alone wants words, whenever said; a bare "ok" or "yes" is left to the model', () => {
    for (const said of [
      'hi!',
      'hi there',
      'Hello!',
      'ok thanks!',
      'thanks, bye',
      'thank you so much',
      'Good morning',
      'see you later',
      'ok, see you tomorrow!',
      'take care',
    ])
      expect(outsideTools(said, pageTools, [calledAddTodo]), said).toBe(true);
    for (const said of [
      'ok',
      'yes please',
      'hi, add milk',
      'thanks, now sort the table',
      'hey can you clear it',
      'see you later, add milk first',
      'later: call the plumber',
    ])
      expect(outsideTools(said, pageTools, [calledAddTodo]), said).toBe(false);
  });

  test('"tell me", "give me" of a thing no tool names and the session never held wants words, whenever asked', () => {
    for (const said of ['tell me a joke', 'can you tell me a joke?', 'please give me a fun fact', 'tell us a story'])
      expect(outsideTools(said, pageTools, [calledAddTodo]), said).toBe(true);
    // A thing of the tools, or one the session's calls held ("milk"), is left to the model.
    expect(outsideTools('show me the products', pageTools, [calledAddTodo])).toBe(false);
    expect(outsideTools('tell me about the milk', pageTools, [calledAddTodo])).toBe(false);
  });

  test('a question that names a tool’s thing, asks for an action, or asks nothing is left to the model', () => {
    expect(outsideTools("what's on my to-do list?", pageTools, [calledAddTodo])).toBe(false);
    expect(outsideTools('could you water the plants?', pageTools, [])).toBe(false);
    expect(outsideTools('and eggs?', pageTools, [calledAddTodo])).toBe(false);
  });
});
