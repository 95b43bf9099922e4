import { expect, it } from 'vitest';
import { defineTool } from '../../src/tools/define-tool';
import { invokeTool } from '../../src/tools/invoke-tool';
import { z } from '../../src/tools/zod';

// Real Chromium: a DOM node is the mistake page tools make most, and only a browser has one.
it('turns a DOM node in a result into tool-result-not-cloneable that names the element', async () => {
  const list = document.createElement('ul');
  document.body.append(list);
  const addTodo = defineTool({
    name: 'add_todo',
    description: 'Add an item to the list on this page.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      const item = document.createElement('li');
      item.textContent = text;
      list.append(item);
      return { added: item };
    },
  });
  const outcome = await invokeTool(addTodo, { text: 'milk' });
  expect(list.textContent).toBe('milk');
  expect(outcome.ok).toBe(false);
  if (!outcome.ok) {
    expect(outcome.error.code).toBe('tool-result-not-cloneable');
    expect(outcome.error.message).toContain('content.added is a DOM node (<li>)');
  }
  list.remove();
});
