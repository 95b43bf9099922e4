import { describe, expect, test } from 'vitest';
import { findItem } from '../../src/tools/find-item';

const todos = ['Buy milk', 'Walk the dog', 'Call Ana', 'Pay the electricity bill'];
const named = (words: string, items: readonly string[] = todos) => {
  const found = findItem(items, words, { noun: 'to-do', ignore: ['todo', 'task'] });
  return found.found ? found.item : undefined;
};

describe('findItem: the item a visitor means, from their own words', () => {
  test.each([
    ['milk', 'Buy milk'],
    ['buy milk', 'Buy milk'],
    ['Buy milk', 'Buy milk'],
    ['the dog one', 'Walk the dog'],
    ['the one about the dog', 'Walk the dog'],
    ['dogs', 'Walk the dog'],
    ['ana', 'Call Ana'],
    ['Ána', 'Call Ana'],
    ['electricity', 'Pay the electricity bill'],
    ['the bill', 'Pay the electricity bill'],
    ['elec', 'Pay the electricity bill'],
  ])('by a word of it: "%s" is "%s"', (words, item) => {
    expect(named(words)).toBe(item);
  });

  test.each([
    ['mlik', 'Buy milk'],
    ['the dgo one', 'Walk the dog'],
    ['electrcity bill', 'Pay the electricity bill'],
    ['call anna', 'Call Ana'],
  ])('through a small typo: "%s" is "%s"', (words, item) => {
    expect(named(words)).toBe(item);
  });

  test.each([
    ['the first one', 'Buy milk'],
    ['the second one', 'Walk the dog'],
    ['2nd', 'Walk the dog'],
    ['number 3', 'Call Ana'],
    ['#3', 'Call Ana'],
    ['the last one', 'Pay the electricity bill'],
    ['the last todo', 'Pay the electricity bill'],
    ['second to last', 'Call Ana'],
    ['the second last task', 'Call Ana'],
  ])('by its place: "%s" is "%s"', (words, item) => {
    expect(named(words)).toBe(item);
  });

  test.each([
    ['Mark the plumber one as done.', 'Call the plumber'],
    ['done with the dry cleaning', 'Pick up the dry cleaning'],
    ["I'm finished with the milk", 'Buy milk'],
    ['tick off the second one', 'Call the plumber'],
    ['remove the dog one from my list', 'Walk the dog'],
    // The page suite's 0.5B passed the visitor's "garlic's done" whole.
    ["the dry cleaning's done", 'Pick up the dry cleaning'],
    ["the milk's done", 'Buy milk'],
    // Said done in the visitor's own verbs (a held-out conversation's "flour's bought" found no to-do).
    ["the milk's bought", 'Buy milk'],
    ["plumber's been called", 'Call the plumber'],
    ['got the dry cleaning', 'Pick up the dry cleaning'],
  ])('the visitor\'s whole request, as a small model passes it on: "%s" is "%s"', (words, item) => {
    expect(named(words, ['Buy milk', 'Call the plumber', 'Pick up the dry cleaning', 'Walk the dog'])).toBe(item);
  });

  test('a request\'s own words still name an item that holds them: "mark" is Mark\'s birthday', () => {
    expect(named('mark as done', ["Mark's birthday", 'Buy milk'])).toBe("Mark's birthday");
    expect(named('mark it as done', ['Buy milk', 'Walk the dog'])).toBeUndefined();
  });

  test('a place among the items the other words name: "the second milk one"', () => {
    expect(named('the second milk one', ['Buy milk', 'Walk the dog', 'Milk the cow'])).toBe('Milk the cow');
  });

  test('a number that is a word of an item names that item, not a place', () => {
    expect(named('101', ['Clean room 7', 'Clean room 101'])).toBe('Clean room 101');
    expect(named('2', ['Clean room 7', 'Clean room 101'])).toBe('Clean room 101');
  });

  test('an item that is exactly the words wins over items that only hold them', () => {
    expect(named('milk', ['Buy milk', 'milk', 'Milk the cow'])).toBe('milk');
  });

  test('words that fit two items equally are not guessed: the message names both, to ask which', () => {
    const found = findItem(['Buy milk', 'Milk the cow', 'Call Ana'], 'milk', { noun: 'to-do' });
    expect(found).toEqual({
      found: false,
      candidates: ['Buy milk', 'Milk the cow'],
      message: '"milk" could be any of: Buy milk, Milk the cow. Ask which one.',
    });
  });

  test('nothing that fits is said plainly, with the items there are, so the model can answer', () => {
    const found = findItem(todos, 'coffee', { noun: 'to-do' });
    expect(found).toEqual({
      found: false,
      candidates: [],
      message: 'No to-do matches "coffee". The to-dos are: Buy milk, Walk the dog, Call Ana, Pay the electricity bill.',
    });
    expect(findItem([], 'milk', { noun: 'to-do' })).toMatchObject({
      found: false,
      message: 'No to-do matches "milk". The to-dos are: no to-dos yet.',
    });
    expect(findItem(todos, 'the fifth one')).toMatchObject({ found: false, candidates: [] });
    expect(findItem(todos, 'the one')).toMatchObject({ found: false, candidates: [] });
  });

  test('most of the words must be in the item, and the thing named last: "the red mug" is not "Blue mug", "a new teapot" not "a new kettle", and short words need to be exact', () => {
    expect(named('the red mug', ['Blue mug', 'Red kettle'])).toBeUndefined();
    // The page suite's 0.5B asked for "Buy a new teapot." with only "Buy a new kettle." on the list.
    expect(named('Buy a new teapot.', ['Buy a new kettle.', 'Complete the task.'])).toBeUndefined();
    expect(named('cat', ['Feed the car'])).toBeUndefined();
  });

  test('items of any shape, through `text`, with their index', () => {
    const products = [
      { id: 'p1', name: 'Kettle', price: 39 },
      { id: 'p2', name: 'Teapot', price: 24 },
    ];
    expect(findItem(products, 'the tea pot', { text: (product) => product.name })).toEqual({
      found: true,
      item: products[1],
      index: 1,
    });
    expect(findItem(products, 'the toaster', { text: (product) => product.name })).toEqual({
      found: false,
      candidates: [],
      message: 'No item matches "the toaster". The items are: Kettle, Teapot.',
    });
  });
});
