/** What the page says of BFCL's files, and what they allow: Start, and the categories that can be picked. */
import { BFCL_CATEGORIES } from '../../eval/bfcl/categories';
import type { BfclFiles } from './bfcl-files';

const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

export function showBfcl(files: BfclFiles | undefined): void {
  const have = files?.categories ?? [];
  const lacking = BFCL_CATEGORIES.filter((category) => !have.includes(category));
  $('#bfcl').dataset.state = !files ? 'missing' : have.length ? 'ready' : 'empty';
  $('#bfcl-status').textContent = !files
    ? "No BFCL cases yet: this page does not come with them. Download BFCL's data (where from is below), then choose its folder."
    : !have.length
      ? `No BFCL cases in ${files.from}: choose the folder that holds BFCL_v4_<category>.json and possible_answer/ (bfcl_eval/data).`
      : `BFCL's cases from ${files.from}: ${have.length} of ${BFCL_CATEGORIES.length} categories${lacking.length ? ` (not there: ${lacking.join(', ')})` : ''}.`;
  // Without any files every box stays as it was (nothing can start); with some, a category without its files
  // cannot be picked, and one whose files came back is picked again.
  if (files)
    for (const box of document.querySelectorAll<HTMLInputElement>('input[name="category"]')) {
      const missing = !have.includes(box.value as (typeof have)[number]);
      if (!missing && box.dataset.missing) box.checked = true;
      if (missing) box.checked = false;
      box.disabled = missing;
      if (missing) box.dataset.missing = 'true';
      else delete box.dataset.missing;
    }
  $<HTMLButtonElement>('#start').disabled = !have.length;
  // Where the files come from stays open until there are some.
  $<HTMLDetailsElement>('#bfcl-where').open = !have.length;
}
