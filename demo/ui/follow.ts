// Auto-scroll: the newest message stays in view while the visitor is at the bottom; once they
// scroll up to read, it stays where they are and a "Newest" button offers the way back.
const scroller = () => document.querySelector<HTMLElement>('#scroller')!;
const jump = () => document.querySelector<HTMLButtonElement>('#jump')!;
let pinned = true;
/** Where auto-scroll last put the view: a view above it means the visitor moved, even before their scroll event. */
let followedTo = 0;

function atBottom(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight < 48;
}

export function startFollowing(): void {
  const element = scroller();
  element.addEventListener('scroll', () => {
    pinned = atBottom(element);
    if (pinned) jump().hidden = true;
  });
  // A wheel or a finger moving up means "let me read", at once.
  element.addEventListener('wheel', (event) => event.deltaY < 0 && (pinned = false), { passive: true });
  element.addEventListener('touchmove', () => (pinned = atBottom(element)), { passive: true });
  jump().addEventListener('click', () => pin());
}

/** Call after the chat grew. */
export function follow(): void {
  const element = scroller();
  // (Content that shrank leaves the view lower than that, but still at the bottom.)
  if (pinned && element.scrollTop < followedTo - 4 && !atBottom(element)) pinned = false;
  if (pinned) {
    element.scrollTop = element.scrollHeight;
    followedTo = element.scrollTop;
    jump().hidden = true;
  } else if (!atBottom(element)) {
    jump().hidden = false;
  }
}

/** After a new message from the visitor: they want to see what follows. */
export function pin(): void {
  pinned = true;
  followedTo = 0;
  follow();
}
