/**
 * What a visitor sees of the page the suite's requests act on (the demo's
 * sample page, page-parts.ts): the to-do list with its done marks, the notes,
 * the products table's rows in their order (those a filter hides apart), and
 * the contact form's fields. The judge compares it before and after each
 * request.
 */
export interface PageState {
  todos: { text: string; done: boolean }[];
  notes: { title: string; body: string }[];
  table: { shown: string[]; hidden: string[] };
  form: { name: string; email: string; message: string };
}

export function readPageState(root: ParentNode = document): PageState {
  const text = (element: Element | null | undefined) => element?.textContent?.trim() ?? '';
  const value = (selector: string) => root.querySelector<HTMLInputElement | HTMLTextAreaElement>(selector)?.value ?? '';
  const rows = [...root.querySelectorAll<HTMLTableRowElement>('#products tbody tr')];
  const name = (row: HTMLTableRowElement) => text(row.cells[0]);
  return {
    todos: [...root.querySelectorAll('#todos li')].map((item) => ({
      text: text(item.querySelector('span')),
      done: item.classList.contains('done'),
    })),
    notes: [...root.querySelectorAll('#notes article')].map((note) => ({
      title: text(note.querySelector('h3')),
      body: text(note.querySelector('p')),
    })),
    table: { shown: rows.filter((row) => !row.hidden).map(name), hidden: rows.filter((row) => row.hidden).map(name) },
    form: { name: value('#form-name'), email: value('#form-email'), message: value('#form-message') },
  };
}
