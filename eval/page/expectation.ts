/**
 * What a request of the page suite expects, as data: the calls that must run,
 * the calls that may, how the page changes (relative to the page before the
 * request, so one request's failure is not every later one's), what the
 * visitor answers when the page asks before a destructive call, and what the
 * reply must say. The short forms below (todo('milk'), sort('price', 'desc'),
 * …) are how conversations.ts writes them.
 */
import type { TextMatch } from './text-match';

/** How a call ended: ran; failed in the tool; refused by the runtime (unknown tool, bad arguments, a repeat); not approved. */
export type CallOutcome = 'ran' | 'failed' | 'refused' | 'not-approved';

/** One argument: words it must hold (a string, text-match.ts), an exact value, or absent. */
export type ArgMatch =
  | TextMatch
  | { is: string | number | boolean }
  /** The value, or no value at all (a default: `descending` absent is ascending). */
  | { isOrAbsent: string | number | boolean }
  /** Absent, or an empty string. */
  | { absent: true };

export interface CallMatch {
  name: string;
  /** The arguments that matter; any other may be anything. `'*'`: words that may be in any of them (a note's title or body). */
  args?: Record<string, ArgMatch>;
  /**
   * Or what the tool returned holds these, where `args` does not: a tool that finds the item from the visitor's
   * words (findItem) marks the eggs for "the second one", and says so in its result ({ done: 'eggs' }).
   */
  orResult?: Record<string, ArgMatch>;
  /** Default 'ran'; 'not-approved' where the visitor says no. */
  outcome?: CallOutcome;
}

export interface PageChange {
  todos?: {
    /** Items this request adds, in any order, not done. */
    added?: TextMatch[];
    /** Items it may add (a follow-up no tool quite does, answered with an add or with words). */
    mayAdd?: TextMatch[];
    /** Items it marks done (every item matching). */
    done?: TextMatch[];
    /** Every item gone. */
    cleared?: true;
  };
  notes?: { added?: TextMatch[]; mayAdd?: TextMatch[] };
  /** The table's shown rows afterwards, in order (rows not named are hidden); any of these. */
  table?: { shown: string[] }[];
  form?: { name: TextMatch; email: string; message: TextMatch };
}

export interface RequestExpectation {
  /** The calls that must run, each by a call of its own ('none': the right answer calls nothing). */
  calls: 'none' | CallMatch[];
  /**
   * Calls that may run too. Where a request asks for an action, reading the list first (list_todos) always may;
   * a call that failed or was refused on the way to a required one is forgiven (the page did not change).
   */
  allowed?: CallMatch[];
  /** Absent: the page does not change. */
  page?: PageChange;
  /** The destructive tools the visitor approves when the page asks (they asked for it); any other is refused. */
  approves?: string[];
  /** What the reply must say (an answer a visitor can check: "4", "Paris", "Mug"). */
  mentions?: TextMatch[];
  /**
   * Earlier actions of this conversation the reply may speak of without calling now ("thanks!" → "Glad I could
   * add them"), honoured only when such a call ran earlier in the conversation.
   */
  mayRecall?: string[];
}

/** What a request tests, for the table's breakdown. */
export type RequestKind =
  'several' | 'no-tool' | 'follow-up' | 'pick-tool' | 'values' | 'claim-bait' | 'destructive' | 'question';

export interface PageRequest {
  text: string;
  kinds: RequestKind[];
  expect: RequestExpectation;
}

export interface Conversation {
  id: string;
  /** Who types it, in a few words. */
  visitor: string;
  requests: PageRequest[];
}

// The short forms the suite is written in.
export const todo = (text: TextMatch): CallMatch => ({ name: 'add_todo', args: { text } });
export const complete = (text: TextMatch): CallMatch => ({
  name: 'complete_todo',
  args: { text },
  orResult: { done: text },
});
export const list = (): CallMatch => ({ name: 'list_todos' });
export const clear = (outcome: CallOutcome = 'ran'): CallMatch => ({ name: 'clear_todos', outcome });
/** A note whose title and body together hold these words. */
export const note = (words: TextMatch): CallMatch => ({ name: 'add_note', args: { '*': words } });
export const sort = (column: 'name' | 'price' | 'stock', order: 'asc' | 'desc'): CallMatch => ({
  name: 'sort_table',
  args: { column: { is: column }, descending: order === 'desc' ? { is: true } : { isOrAbsent: false } },
});
export const filter = (words: TextMatch): CallMatch => ({ name: 'sort_table', args: { filter: words } });
export const form = (name: TextMatch, email: string, message: TextMatch): CallMatch => ({
  name: 'fill_form',
  args: { name, email: { is: email }, message },
});
