// The insight drawer: opened from the header, closed with its button or Escape, with tabs
// (arrow keys move between them, as the ARIA tabs pattern says).
const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
export type View = 'timeline' | 'graph' | 'stats' | 'sessions' | 'model';
let onShow: (view: View) => void = () => undefined;

const tabs = () => [...document.querySelectorAll<HTMLButtonElement>('#drawer [role="tab"]')];

export function isDrawerOpen(): boolean {
  return !$('#drawer').hidden;
}

export function openDrawer(view?: View): void {
  const drawer = $('#drawer');
  const opening = drawer.hidden;
  drawer.hidden = false;
  document.body.classList.add('drawer-open');
  $('#insight-button').setAttribute('aria-expanded', 'true');
  if (view) selectView(view);
  else if (opening) onShow(currentView());
  (tabs().find((tab) => tab.getAttribute('aria-selected') === 'true') ?? tabs()[0]!).focus();
}

export function closeDrawer(): void {
  if ($('#drawer').hidden) return;
  $('#drawer').hidden = true;
  document.body.classList.remove('drawer-open');
  $('#insight-button').setAttribute('aria-expanded', 'false');
  $<HTMLButtonElement>('#insight-button').focus();
}

export function currentView(): View {
  const tab = tabs().find((candidate) => candidate.getAttribute('aria-selected') === 'true');
  return (tab?.id.replace('tab-', '') ?? 'timeline') as View;
}

export function selectView(view: View): void {
  for (const tab of tabs()) {
    const selected = tab.id === `tab-${view}`;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    $(`#${tab.getAttribute('aria-controls')}`).hidden = !selected;
  }
  onShow(view);
}

export function startDrawer(show: (view: View) => void): void {
  onShow = show;
  $('#insight-button').addEventListener('click', () => (isDrawerOpen() ? closeDrawer() : openDrawer()));
  $('#drawer-close').addEventListener('click', closeDrawer);
  // On the document, not the drawer: focus may have left it (a button it disabled, a finished load).
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isDrawerOpen() && !document.querySelector('dialog[open]')) closeDrawer();
  });
  const list = tabs();
  list.forEach((tab, i) => {
    tab.addEventListener('click', () => selectView(tab.id.replace('tab-', '') as View));
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      const next = list[(i + step + list.length) % list.length]!;
      next.focus();
      next.click();
    });
  });
}
