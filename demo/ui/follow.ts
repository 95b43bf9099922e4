// Auto-scroll: the newest message stays in view while the visitor is at the bottom; once they
// scroll up to read, it stays where they are and a "Newest" button offers the way back.
const scroller = () => document.querySelector<HTMLElement>('#scroller')!;
const jump = () => document.querySelector<HTMLButtonElement>('#jump')!;
let pinned = true;

function atBottom(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight < 48;
}

export function startFollowing(): void {
  const element = scroller();
  element.addEventListener('scroll', () => {
    pinned = atBottom(element);
    if (pinned) jump().hidden = true;
  });
  jump().addEventListener('click', () => {
    pinned = true;
    follow();
  });
}

/** Call after the chat grew. */
export function follow(): void {
  const element = scroller();
  if (pinned) {
    element.scrollTop = element.scrollHeight;
    jump().hidden = true;
  } else if (!atBottom(element)) {
    jump().hidden = false;
  }
}

/** After a new message from the visitor: they want to see what follows. */
export function pin(): void {
  pinned = true;
  follow();
}
