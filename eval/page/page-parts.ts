/**
 * The parts of the demo's page that its tools touch (demo/app/page-tools.ts
 * finds them by id), written for the suite: the to-do list, the notes, the
 * products table with the demo's four products in the demo's order, and the
 * contact form. Each conversation starts on a fresh copy; a test holds the
 * products to index.html's.
 */
import type { PageState } from './page-state';

export const PRODUCTS: readonly { name: string; price: number; stock: number }[] = [
  { name: 'Kettle', price: 39, stock: 12 },
  { name: 'Teapot', price: 24, stock: 30 },
  { name: 'Grinder', price: 89, stock: 4 },
  { name: 'Mug', price: 9, stock: 120 },
];

const PAGE_ID = 'page-suite-page';

/** Puts a fresh page in the document in place of the last one, and returns it. */
export function mountPageParts(into: HTMLElement = document.body): HTMLElement {
  document.getElementById(PAGE_ID)?.remove();
  const page = document.createElement('div');
  page.id = PAGE_ID;
  const rows = PRODUCTS.map(
    (product) => `<tr><td>${product.name}</td><td>${product.price}</td><td>${product.stock}</td></tr>`,
  ).join('');
  page.innerHTML = `
    <section><h2>To-dos</h2><ul id="todos"></ul></section>
    <section><h2>Notes</h2><div id="notes"></div></section>
    <section><h2>Products</h2>
      <table id="products">
        <thead><tr><th scope="col">Name</th><th scope="col">Price</th><th scope="col">Stock</th></tr></thead>
        <tbody>${rows}</tbody>
      </table>
    </section>
    <section><h2>Contact</h2>
      <form id="contact">
        <label for="form-name">Name</label><input id="form-name" />
        <label for="form-email">Email</label><input id="form-email" type="email" />
        <label for="form-message">Message</label><textarea id="form-message"></textarea>
      </form>
    </section>`;
  into.append(page);
  return page;
}

/** The page as mountPageParts leaves it: what a conversation's first request starts from. */
export function freshPageState(): PageState {
  return {
    todos: [],
    notes: [],
    table: { shown: PRODUCTS.map((product) => product.name), hidden: [] },
    form: { name: '', email: '', message: '' },
  };
}
