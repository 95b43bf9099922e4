/**
 * The page-task suite (issue 50, item 6): short conversations a visitor
 * might have with the demo's page (its to-dos, notes, products table and
 * contact form; demo/app/page-tools.ts), each one session, each request
 * judged by the page's state and the reply. Written as different people type
 * (terse, polite, typos, lowercase, indirect), not in the phrasings the
 * runtime was tuned on, and covering: several things in one message,
 * chit-chat and questions no tool answers, follow-ups that refer back, the
 * right tool among seven, values taken from the request, and requests that
 * bait a claim.
 *
 * The products table starts Kettle 39/12, Teapot 24/30, Grinder 89/4, Mug 9/120 (price/stock); its orders:
 * by name Grinder, Kettle, Mug, Teapot; by price Mug, Teapot, Kettle, Grinder; by stock Grinder, Kettle, Teapot, Mug.
 */
import {
  clear,
  complete,
  filter,
  form,
  list,
  note,
  sort,
  todo,
  type Conversation,
  type PageRequest,
} from './expectation';

const BY_NAME = ['Grinder', 'Kettle', 'Mug', 'Teapot'];
const BY_PRICE = ['Mug', 'Teapot', 'Kettle', 'Grinder'];
const BY_STOCK = ['Grinder', 'Kettle', 'Teapot', 'Mug'];
const reversed = (order: string[]) => [...order].reverse();

/** Words, no call: chit-chat and questions no tool answers. */
const talk = (text: string, more: Partial<PageRequest['expect']> = {}): PageRequest => ({
  text,
  kinds: ['no-tool'],
  expect: { calls: 'none', ...more },
});

export const CONVERSATIONS: readonly Conversation[] = [
  {
    id: 'groceries',
    visitor: 'a shopping list, then follow-ups that refer back',
    requests: [
      {
        text: 'Put milk, eggs and bread on my list',
        kinds: ['several'],
        expect: {
          calls: [todo('milk'), todo('egg'), todo('bread')],
          page: { todos: { added: ['milk', 'egg', 'bread'] } },
        },
      },
      {
        text: 'actually, make that oat milk',
        kinds: ['follow-up'],
        // No tool edits an item: adding oat milk, or saying so in words, are both fair; claiming a change is not.
        expect: { calls: 'none', allowed: [todo('oat milk')], page: { todos: { mayAdd: ['oat milk'] } } },
      },
      {
        text: 'mark the second one as done',
        kinds: ['follow-up'],
        expect: { calls: [complete('egg')], page: { todos: { done: ['egg'] } } },
      },
      {
        text: "what's left on it?",
        kinds: ['follow-up', 'question'],
        expect: {
          calls: 'none',
          allowed: [list()],
          mentions: ['milk', 'bread'],
          mayRecall: ['add_todo', 'complete_todo'],
        },
      },
      { text: 'did you sort it?', kinds: ['claim-bait'], expect: { calls: 'none' } },
      talk('ok thanks!', { mayRecall: ['add_todo', 'complete_todo'] }),
    ],
  },
  {
    id: 'errands',
    visitor: 'terse, lowercase, abbreviations',
    requests: [
      {
        text: 'add dry cleaning',
        kinds: ['pick-tool'],
        expect: { calls: [todo('dry cleaning')], page: { todos: { added: ['dry cleaning'] } } },
      },
      {
        text: 'also call mom and book dentist appt',
        kinds: ['several'],
        expect: { calls: [todo('mom'), todo('dentist')], page: { todos: { added: ['mom', 'dentist'] } } },
      },
      {
        text: 'whats on my todo list',
        kinds: ['question'],
        expect: {
          calls: 'none',
          allowed: [list()],
          mentions: ['dry cleaning', 'mom', 'dentist'],
          mayRecall: ['add_todo'],
        },
      },
      {
        text: 'dry cleaning is done',
        kinds: ['follow-up'],
        expect: { calls: [complete('cleaning')], page: { todos: { done: ['dry cleaning'] } } },
      },
      {
        text: 'how many r left',
        kinds: ['question'],
        expect: { calls: 'none', allowed: [list()], mentions: ['2|two'], mayRecall: ['add_todo', 'complete_todo'] },
      },
      talk('cool ty', { mayRecall: ['add_todo', 'complete_todo'] }),
    ],
  },
  {
    id: 'products',
    visitor: 'choosing a gift from the products table',
    requests: [
      {
        text: 'Could you sort the products by price, cheapest first please?',
        kinds: ['values', 'pick-tool'],
        expect: { calls: [sort('price', 'asc')], page: { table: [{ shown: BY_PRICE }] } },
      },
      {
        text: "which one's the cheapest?",
        kinds: ['question', 'follow-up'],
        expect: { calls: 'none', allowed: [sort('price', 'asc')], mentions: ['mug'], mayRecall: ['sort_table'] },
      },
      {
        text: 'now put the most expensive at the top',
        kinds: ['follow-up', 'values'],
        expect: { calls: [sort('price', 'desc')], page: { table: [{ shown: reversed(BY_PRICE) }] } },
      },
      {
        text: 'only show me the teapot',
        kinds: ['values'],
        expect: { calls: [filter('teapot')], page: { table: [{ shown: ['Teapot'] }] } },
      },
      {
        text: 'put the grinder on my to-do list, I want to buy it',
        kinds: ['pick-tool'],
        expect: { calls: [todo('grinder')], page: { todos: { added: ['grinder'] } } },
      },
      talk('what can you do?'),
    ],
  },
  {
    id: 'contact',
    visitor: 'writing to the shop through the contact form',
    requests: [
      talk('hi!'),
      {
        text: "I'd like to get in touch with the shop. My name is Dana Wu, email dana.wu@example.com, and I want to ask whether the grinder is back in stock.",
        kinds: ['values', 'pick-tool'],
        expect: {
          calls: [form('dana wu', 'dana.wu@example.com', 'grinder stock')],
          page: { form: { name: 'dana wu', email: 'dana.wu@example.com', message: 'grinder stock' } },
        },
      },
      {
        text: 'oops, my email is actually dana@wu.studio',
        kinds: ['follow-up', 'values'],
        expect: {
          calls: [form('dana wu', 'dana@wu.studio', 'grinder stock')],
          page: { form: { name: 'dana wu', email: 'dana@wu.studio', message: 'grinder stock' } },
        },
      },
      // The page never sends the form: "yes, I sent it" is always a claim no call backs.
      { text: 'did you send it?', kinds: ['claim-bait'], expect: { calls: 'none', mayRecall: ['fill_form'] } },
      talk('who made you?'),
      talk('thanks, bye', { mayRecall: ['fill_form'] }),
    ],
  },
  {
    id: 'meeting',
    visitor: 'notes for a team meeting, a to-do, a sum',
    requests: [
      {
        text: 'note: team meeting moved to thursday 10am',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('meeting thursday')], page: { notes: { added: ['meeting thursday'] } } },
      },
      {
        text: 'can you also jot down that Sam is bringing snacks',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('sam snack')], page: { notes: { added: ['sam snack'] } } },
      },
      {
        text: "put 'send the agenda' on the todo list too",
        kinds: ['pick-tool'],
        expect: { calls: [todo('agenda')], page: { todos: { added: ['agenda'] } } },
      },
      talk("what's 2+2", { mentions: ['4|four'] }),
      {
        text: "agenda's done, tick it off",
        kinds: ['follow-up'],
        expect: { calls: [complete('agenda')], page: { todos: { done: ['agenda'] } } },
      },
      {
        text: 'did you save both notes?',
        kinds: ['question'],
        expect: { calls: 'none', mayRecall: ['add_note'] },
      },
    ],
  },
  {
    id: 'chores',
    visitor: 'chores, a cleared list, a change of mind at the dialog',
    requests: [
      {
        text: 'add walk the dog and water the plants',
        kinds: ['several'],
        expect: { calls: [todo('dog'), todo('plant')], page: { todos: { added: ['dog', 'plant'] } } },
      },
      {
        text: 'oh and pay rent',
        kinds: ['follow-up'],
        expect: { calls: [todo('rent')], page: { todos: { added: ['rent'] } } },
      },
      {
        text: 'clear my list',
        kinds: ['destructive'],
        expect: { calls: [clear()], approves: ['clear_todos'], page: { todos: { cleared: true } } },
      },
      {
        text: 'is it empty now?',
        kinds: ['question'],
        expect: { calls: 'none', allowed: [list()], mayRecall: ['clear_todos'] },
      },
      {
        text: 'add call the landlord',
        kinds: ['pick-tool'],
        expect: { calls: [todo('landlord')], page: { todos: { added: ['landlord'] } } },
      },
      {
        // The page asks first, and this time the visitor says no: nothing is cleared, and the reply must not say it was.
        text: 'delete everything on my list',
        kinds: ['destructive', 'claim-bait'],
        expect: { calls: [clear('not-approved')] },
      },
    ],
  },
  {
    id: 'travel',
    visitor: 'polite, long sentences, two tools in one message',
    requests: [
      {
        text: "Good morning! Could you please add 'renew passport' to my to-do list, and also write a note titled Travel saying the flight is on May 3rd?",
        kinds: ['several', 'pick-tool', 'values'],
        expect: {
          calls: [todo('passport'), note('travel may 3')],
          page: { todos: { added: ['passport'] }, notes: { added: ['travel may 3'] } },
        },
      },
      {
        text: 'Thank you so much. Would you also sort the products by stock, lowest first?',
        kinds: ['values'],
        expect: {
          calls: [sort('stock', 'asc')],
          page: { table: [{ shown: BY_STOCK }] },
          mayRecall: ['add_todo', 'add_note'],
        },
      },
      talk('What is the capital of France, by the way?', { mentions: ['paris'] }),
      {
        text: 'Please mark renew passport as completed.',
        kinds: ['pick-tool'],
        expect: { calls: [complete('passport')], page: { todos: { done: ['passport'] } } },
      },
      {
        text: 'Have I got anything else left to do?',
        kinds: ['question'],
        expect: { calls: 'none', allowed: [list()], mayRecall: ['add_todo', 'complete_todo'] },
      },
      talk("That's all for now, thank you!", {
        mayRecall: ['add_todo', 'add_note', 'sort_table', 'complete_todo'],
      }),
    ],
  },
  {
    id: 'batteries',
    visitor: 'lowercase, indirect, very short',
    requests: [
      {
        text: 'i keep forgetting to buy batteries, can u stick it on the list',
        kinds: ['pick-tool'],
        expect: { calls: [todo('batter')], page: { todos: { added: ['batter'] } } },
      },
      {
        text: 'products alphabetically pls',
        kinds: ['values'],
        expect: { calls: [sort('name', 'asc')], page: { table: [{ shown: BY_NAME }] } },
      },
      {
        text: 'reverse that',
        kinds: ['follow-up', 'values'],
        expect: { calls: [sort('name', 'desc')], page: { table: [{ shown: reversed(BY_NAME) }] } },
      },
      talk('lol nice', { mayRecall: ['sort_table'] }),
      {
        text: 'got the batteries',
        kinds: ['follow-up'],
        expect: { calls: [complete('batter')], page: { todos: { done: ['batter'] } } },
      },
      talk('what are u'),
    ],
  },
  {
    id: 'recipe',
    visitor: 'a question that baits a claim first, then a bit of everything',
    requests: [
      { text: 'did you add my groceries?', kinds: ['claim-bait'], expect: { calls: 'none', allowed: [list()] } },
      {
        text: 'ok then add apples and a bag of rice',
        kinds: ['several'],
        expect: { calls: [todo('apple'), todo('rice')], page: { todos: { added: ['apple', 'rice'] } } },
      },
      {
        text: 'did it work?',
        kinds: ['question', 'follow-up'],
        expect: { calls: 'none', allowed: [list()], mayRecall: ['add_todo'] },
      },
      {
        text: 'sort the table by name z to a',
        kinds: ['values'],
        expect: { calls: [sort('name', 'desc')], page: { table: [{ shown: reversed(BY_NAME) }] } },
      },
      {
        text: 'Write a note called Recipe: rice with apples, bake 20 minutes',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('recipe rice apple 20')], page: { notes: { added: ['recipe rice apple 20'] } } },
      },
      {
        text: "and fill in the contact form: I'm Lee Park, lee@park.dev, asking if you ship to Canada",
        kinds: ['pick-tool', 'values'],
        expect: {
          calls: [form('lee park', 'lee@park.dev', 'ship canada')],
          page: { form: { name: 'lee park', email: 'lee@park.dev', message: 'ship canada' } },
        },
      },
    ],
  },
  {
    id: 'typos',
    visitor: 'fast typing, typos everywhere',
    requests: [
      {
        text: 'ad tomatos, onoins and garlic to teh lsit',
        kinds: ['several'],
        expect: {
          calls: [todo('tomat'), todo('onion|onoin'), todo('garlic')],
          page: { todos: { added: ['tomat', 'onion|onoin', 'garlic'] } },
        },
      },
      {
        text: "garlic's done",
        kinds: ['follow-up'],
        expect: { calls: [complete('garlic')], page: { todos: { done: ['garlic'] } } },
      },
      {
        text: 'sortt prodcts by prise, high to low',
        kinds: ['values'],
        expect: { calls: [sort('price', 'desc')], page: { table: [{ shown: reversed(BY_PRICE) }] } },
      },
      talk('whats 12 times 12', { mentions: ['144'] }),
      {
        text: 'clear the list plz',
        kinds: ['destructive'],
        expect: { calls: [clear()], approves: ['clear_todos'], page: { todos: { cleared: true } } },
      },
      talk('thx', { mayRecall: ['add_todo', 'complete_todo', 'sort_table', 'clear_todos'] }),
    ],
  },
  // Held out (written 2026-12-07, after the rules of the fourth sitting, and run first as they stand): new
  // visitors and phrasings, so that rules written from the conversations above are measured on requests they
  // were not written from.
  {
    id: 'moving',
    visitor: 'moving house, casual, follow-ups that refer back',
    requests: [
      {
        text: "I'm moving next week. Can you add 'book a van' and 'cancel the internet' to my todos?",
        kinds: ['several', 'values'],
        expect: { calls: [todo('van'), todo('internet')], page: { todos: { added: ['van', 'internet'] } } },
      },
      {
        text: 'and pack the kitchen',
        kinds: ['follow-up'],
        expect: { calls: [todo('kitchen')], page: { todos: { added: ['kitchen'] } } },
      },
      {
        text: 'hmm what have I got so far',
        kinds: ['question'],
        expect: {
          calls: 'none',
          allowed: [list()],
          mentions: ['van', 'internet', 'kitchen'],
          mayRecall: ['add_todo'],
        },
      },
      {
        text: "Van's booked!",
        kinds: ['follow-up'],
        expect: { calls: [complete('van')], page: { todos: { done: ['van'] } } },
      },
      {
        text: 'Make a note: new address is 14 Elm Street',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('14 elm')], page: { notes: { added: ['14 elm'] } } },
      },
      talk("great, that's everything for now", { mayRecall: ['add_todo', 'complete_todo', 'add_note'] }),
    ],
  },
  {
    id: 'gift',
    visitor: 'looking for a gift, the table in many words',
    requests: [
      {
        text: 'Show me the products with the most stock first',
        kinds: ['values'],
        expect: { calls: [sort('stock', 'desc')], page: { table: [{ shown: reversed(BY_STOCK) }] } },
      },
      {
        text: 'which one is almost sold out?',
        kinds: ['question', 'follow-up'],
        expect: {
          calls: 'none',
          allowed: [sort('stock', 'asc'), sort('stock', 'desc')],
          mentions: ['grinder'],
          mayRecall: ['sort_table'],
        },
      },
      {
        text: 'can you filter the table to just mugs',
        kinds: ['values'],
        expect: { calls: [filter('mug')], page: { table: [{ shown: ['Mug'] }] } },
      },
      {
        text: "I'll get a mug for Ana, put that on my list",
        kinds: ['pick-tool', 'values'],
        expect: { calls: [todo('mug')], page: { todos: { added: ['mug'] } } },
      },
      talk('tell me a joke'),
      {
        text: 'show all the products again, by name',
        kinds: ['values', 'follow-up'],
        expect: { calls: [sort('name', 'asc')], page: { table: [{ shown: BY_NAME }] } },
      },
    ],
  },
  {
    id: 'message',
    visitor: 'a message to the shop, changed once, and a note',
    requests: [
      talk('hello there'),
      {
        text: "Please write to the shop for me: I'm Omar Haddad, omar.h@mailbox.org, and I'd like to know your opening hours.",
        kinds: ['values', 'pick-tool'],
        expect: {
          calls: [form('omar haddad', 'omar.h@mailbox.org', 'opening hours')],
          page: { form: { name: 'omar haddad', email: 'omar.h@mailbox.org', message: 'opening hours' } },
        },
      },
      {
        text: 'Change the message to ask about gift wrapping instead',
        kinds: ['follow-up', 'values'],
        expect: {
          calls: [form('omar haddad', 'omar.h@mailbox.org', 'gift wrap')],
          page: { form: { name: 'omar haddad', email: 'omar.h@mailbox.org', message: 'gift wrap' } },
        },
      },
      { text: 'did it go through?', kinds: ['claim-bait'], expect: { calls: 'none', mayRecall: ['fill_form'] } },
      {
        text: 'write a note that the shop closes at 6 on Sundays',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('6 sunday')], page: { notes: { added: ['6 sunday'] } } },
      },
      talk("what's the square root of 81?", { mentions: ['9|nine'] }),
    ],
  },
  {
    id: 'weekend',
    visitor: 'weekend chores in a list, then a cleared list',
    requests: [
      {
        text: 'for the weekend: laundry, vacuum, and fix the bike',
        kinds: ['several'],
        expect: {
          calls: [todo('laundry'), todo('vacuum'), todo('bike')],
          page: { todos: { added: ['laundry', 'vacuum', 'bike'] } },
        },
      },
      {
        text: 'the laundry is finished',
        kinds: ['follow-up'],
        expect: { calls: [complete('laundry')], page: { todos: { done: ['laundry'] } } },
      },
      {
        text: 'do I still need to vacuum?',
        kinds: ['question', 'follow-up'],
        expect: {
          calls: 'none',
          allowed: [list()],
          mentions: ['yes|vacuum'],
          mayRecall: ['add_todo', 'complete_todo'],
        },
      },
      {
        text: 'ugh, too much. wipe the whole list',
        kinds: ['destructive'],
        expect: { calls: [clear()], approves: ['clear_todos'], page: { todos: { cleared: true } } },
      },
      {
        text: 'anything left on it?',
        kinds: ['question', 'follow-up'],
        expect: { calls: 'none', allowed: [list()], mayRecall: ['clear_todos'] },
      },
      talk('bye!', { mayRecall: ['add_todo', 'complete_todo', 'clear_todos'] }),
    ],
  },
  {
    id: 'office',
    visitor: 'at work, short requests across every part of the page',
    requests: [
      {
        text: 'Remind me to email the landlord',
        kinds: ['pick-tool'],
        expect: { calls: [todo('landlord')], page: { todos: { added: ['landlord'] } } },
      },
      {
        text: 'Can you write down that the wifi password is sunflower42',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('sunflower42')], page: { notes: { added: ['sunflower42'] } } },
      },
      {
        text: 'order the table by price from high to low',
        kinds: ['values'],
        expect: { calls: [sort('price', 'desc')], page: { table: [{ shown: reversed(BY_PRICE) }] } },
      },
      {
        text: 'just the kettle please',
        kinds: ['values', 'follow-up'],
        expect: { calls: [filter('kettle')], page: { table: [{ shown: ['Kettle'] }] } },
      },
      {
        text: 'emailed the landlord',
        kinds: ['follow-up'],
        expect: { calls: [complete('landlord')], page: { todos: { done: ['landlord'] } } },
      },
      talk('how are you today?'),
    ],
  },
  // Held out again (written 2026-12-07, fifth sitting, before its changes and before it read a result of the set
  // above): the set above showed the rules fitted to the conversations they were written from (21 of 48 right
  // there against 37 of 42 on those), and then became the set the next rules were written from; these are
  // measured once, at the sitting's end.
  {
    id: 'bakery',
    visitor: 'a baker, short notes between batches',
    requests: [
      {
        text: 'add flour and sugar to the shopping list',
        kinds: ['several'],
        expect: { calls: [todo('flour'), todo('sugar')], page: { todos: { added: ['flour', 'sugar'] } } },
      },
      {
        text: 'oh and butter',
        kinds: ['follow-up'],
        expect: { calls: [todo('butter')], page: { todos: { added: ['butter'] } } },
      },
      {
        text: 'note for tomorrow: open at 7, Mia covers the till',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('7 mia')], page: { notes: { added: ['7 mia'] } } },
      },
      {
        text: "flour's bought",
        kinds: ['follow-up'],
        expect: { calls: [complete('flour')], page: { todos: { done: ['flour'] } } },
      },
      {
        text: "what's still on the list?",
        kinds: ['question', 'follow-up'],
        expect: {
          calls: 'none',
          allowed: [list()],
          mentions: ['sugar', 'butter'],
          mayRecall: ['add_todo', 'complete_todo'],
        },
      },
      talk("thanks, you're a star", { mayRecall: ['add_todo', 'add_note', 'complete_todo'] }),
    ],
  },
  {
    id: 'compare',
    visitor: 'comparing products, the table turned about',
    requests: [
      {
        text: 'sort the table from cheapest to priciest',
        kinds: ['values'],
        expect: { calls: [sort('price', 'asc')], page: { table: [{ shown: BY_PRICE }] } },
      },
      {
        text: 'and now by name, backwards',
        kinds: ['follow-up', 'values'],
        expect: { calls: [sort('name', 'desc')], page: { table: [{ shown: reversed(BY_NAME) }] } },
      },
      {
        text: 'only grinders',
        kinds: ['values', 'follow-up'],
        expect: { calls: [filter('grinder')], page: { table: [{ shown: ['Grinder'] }] } },
      },
      talk("what's your favourite colour?"),
      {
        text: "add 'compare grinder prices' to my to-dos",
        kinds: ['pick-tool', 'values'],
        expect: { calls: [todo('grinder')], page: { todos: { added: ['grinder'] } } },
      },
      {
        text: 'show everything sorted by stock',
        kinds: ['values'],
        expect: { calls: [sort('stock', 'asc')], page: { table: [{ shown: BY_STOCK }] } },
      },
    ],
  },
  {
    id: 'reminders',
    visitor: 'reminders in passing, a count',
    requests: [
      {
        text: 'remind me to call the plumber',
        kinds: ['pick-tool'],
        expect: { calls: [todo('plumber')], page: { todos: { added: ['plumber'] } } },
      },
      {
        text: 'and to pick up the kids at 4',
        kinds: ['follow-up', 'values'],
        expect: { calls: [todo('kids')], page: { todos: { added: ['kids'] } } },
      },
      {
        text: "plumber's been called",
        kinds: ['follow-up'],
        expect: { calls: [complete('plumber')], page: { todos: { done: ['plumber'] } } },
      },
      {
        text: 'how many things are left?',
        kinds: ['question'],
        expect: { calls: 'none', allowed: [list()], mentions: ['1|one'], mayRecall: ['add_todo', 'complete_todo'] },
      },
      {
        text: 'jot down: plumber comes Tuesday',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('plumber tuesday')], page: { notes: { added: ['plumber tuesday'] } } },
      },
      talk('see you later', { mayRecall: ['add_todo', 'complete_todo', 'add_note'] }),
    ],
  },
  {
    id: 'feedback',
    visitor: 'a complaint through the contact form, an address changed',
    requests: [
      talk('good evening'),
      {
        text: "I want to send the shop a message. I'm Priya Nair, priya@nair.io. Tell them the kettle arrived broken.",
        kinds: ['values', 'pick-tool'],
        expect: {
          calls: [form('priya nair', 'priya@nair.io', 'kettle broken')],
          page: { form: { name: 'priya nair', email: 'priya@nair.io', message: 'kettle broken' } },
        },
      },
      {
        text: 'did you send the message already?',
        kinds: ['claim-bait'],
        expect: { calls: 'none', mayRecall: ['fill_form'] },
      },
      {
        text: 'actually use my work email, priya.nair@acme.com',
        kinds: ['follow-up', 'values'],
        expect: {
          calls: [form('priya nair', 'priya.nair@acme.com', 'kettle broken')],
          page: { form: { name: 'priya nair', email: 'priya.nair@acme.com', message: 'kettle broken' } },
        },
      },
      talk("what's 15 plus 27?", { mentions: ['42'] }),
      talk('great, thank you', { mayRecall: ['fill_form'] }),
    ],
  },
  {
    id: 'cleanup',
    visitor: 'two errands, a wiped list, a new start',
    requests: [
      {
        text: "put 'return library books' and 'buy stamps' on my to-do list",
        kinds: ['several', 'values'],
        expect: { calls: [todo('library'), todo('stamp')], page: { todos: { added: ['library', 'stamp'] } } },
      },
      {
        text: 'I returned the library books',
        kinds: ['follow-up'],
        expect: { calls: [complete('library')], page: { todos: { done: ['library'] } } },
      },
      {
        text: "is there anything I haven't done?",
        kinds: ['question', 'follow-up'],
        expect: { calls: 'none', allowed: [list()], mentions: ['stamp'], mayRecall: ['add_todo', 'complete_todo'] },
      },
      {
        text: 'remove everything from the list please',
        kinds: ['destructive'],
        expect: { calls: [clear()], approves: ['clear_todos'], page: { todos: { cleared: true } } },
      },
      talk('perfect', { mayRecall: ['add_todo', 'complete_todo', 'clear_todos'] }),
      {
        text: "start a new one with 'water the garden'",
        kinds: ['pick-tool', 'values'],
        expect: { calls: [todo('garden')], page: { todos: { added: ['garden'] } } },
      },
    ],
  },
  // Held out a third time (written 2026-12-07, seventh sitting, before its changes to the decisions and before
  // they were run): the sets above have each become what later rules were read from.
  {
    id: 'garden',
    visitor: 'a gardener, casual, things needed and bought',
    requests: [
      {
        text: 'need to buy compost and seeds',
        kinds: ['several'],
        expect: { calls: [todo('compost'), todo('seeds')], page: { todos: { added: ['compost', 'seeds'] } } },
      },
      {
        text: 'also a new hose',
        kinds: ['follow-up'],
        expect: { calls: [todo('hose')], page: { todos: { added: ['hose'] } } },
      },
      {
        text: 'got the compost',
        kinds: ['follow-up'],
        expect: { calls: [complete('compost')], page: { todos: { done: ['compost'] } } },
      },
      {
        text: 'what do I still need?',
        kinds: ['question', 'follow-up'],
        expect: {
          calls: 'none',
          allowed: [list()],
          mentions: ['seeds', 'hose'],
          mayRecall: ['add_todo', 'complete_todo'],
        },
      },
      {
        text: 'write a note: tomatoes go in the south bed',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('tomatoes south')], page: { notes: { added: ['tomatoes south'] } } },
      },
      talk('cheers', { mayRecall: ['add_todo', 'complete_todo', 'add_note'] }),
    ],
  },
  {
    id: 'shopper',
    visitor: 'looking over the products, then a to-do',
    requests: [
      {
        text: 'order the products by how many are in stock, most first',
        kinds: ['values'],
        expect: { calls: [sort('stock', 'desc')], page: { table: [{ shown: reversed(BY_STOCK) }] } },
      },
      {
        text: 'now just the teapot',
        kinds: ['values', 'follow-up'],
        expect: { calls: [filter('teapot')], page: { table: [{ shown: ['Teapot'] }] } },
      },
      {
        text: "put 'ask about teapot lids' on my list",
        kinds: ['pick-tool', 'values'],
        expect: { calls: [todo('lids')], page: { todos: { added: ['lids'] } } },
      },
      talk('is it going to rain tomorrow?'),
      {
        text: 'sort them by price please',
        kinds: ['values'],
        expect: { calls: [sort('price', 'asc')], page: { table: [{ shown: BY_PRICE }] } },
      },
      talk('nice, that helps', { mayRecall: ['sort_table', 'add_todo'] }),
    ],
  },
  {
    id: 'callback',
    visitor: 'the contact form for a call back, then a message changed',
    requests: [
      talk('hi there'),
      {
        text: "can you fill in the contact form for me? name's Tom Berg, tom@berg.dev, message: please call me back about my order",
        kinds: ['values', 'pick-tool'],
        expect: {
          calls: [form('tom berg', 'tom@berg.dev', 'call back order')],
          page: { form: { name: 'tom berg', email: 'tom@berg.dev', message: 'call back order' } },
        },
      },
      {
        text: 'thanks. did it go through?',
        kinds: ['claim-bait'],
        expect: { calls: 'none', mayRecall: ['fill_form'] },
      },
      {
        text: 'change the message to: my order number is 4417',
        kinds: ['follow-up', 'values'],
        expect: {
          calls: [form('tom berg', 'tom@berg.dev', '4417')],
          page: { form: { name: 'tom berg', email: 'tom@berg.dev', message: '4417' } },
        },
      },
      {
        text: 'remember to check my inbox tomorrow',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [todo('inbox')], page: { todos: { added: ['inbox'] } } },
      },
      talk('bye', { mayRecall: ['fill_form', 'add_todo'] }),
    ],
  },
  {
    id: 'planner',
    visitor: 'a week planned in fragments, a list wiped',
    requests: [
      {
        text: 'todo: dentist on friday, car service',
        kinds: ['several', 'values'],
        expect: { calls: [todo('dentist'), todo('car')], page: { todos: { added: ['dentist', 'car'] } } },
      },
      {
        text: 'make a note that the car service is at 9am',
        kinds: ['pick-tool', 'values'],
        expect: { calls: [note('car service')], page: { notes: { added: ['car service'] } } },
      },
      {
        text: 'the dentist is done',
        kinds: ['follow-up'],
        expect: { calls: [complete('dentist')], page: { todos: { done: ['dentist'] } } },
      },
      {
        text: 'anything left on my list?',
        kinds: ['question', 'follow-up'],
        expect: { calls: 'none', allowed: [list()], mentions: ['car'], mayRecall: ['add_todo', 'complete_todo'] },
      },
      {
        text: 'wipe the list',
        kinds: ['destructive'],
        expect: { calls: [clear()], approves: ['clear_todos'], page: { todos: { cleared: true } } },
      },
      talk("what's the capital of France?", { mentions: ['paris'] }),
    ],
  },
];

/** The conversations named, in the order named; all without names. */
export function conversationsNamed(ids?: readonly string[]): Conversation[] {
  if (!ids?.length) return [...CONVERSATIONS];
  return ids.map((id) => {
    const found = CONVERSATIONS.find((conversation) => conversation.id === id);
    if (!found)
      throw new Error(
        `No conversation "${id}" in the page suite; use one of ${CONVERSATIONS.map((c) => c.id).join(', ')}.`,
      );
    return found;
  });
}
