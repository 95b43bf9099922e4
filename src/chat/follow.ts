/**
 * Auto-scroll: the newest message stays in view while the visitor is at the
 * bottom; once they scroll up to read, it stays where they are, and the
 * "Newest" button offers the way back.
 */
export class Follower {
  private pinned = true;
  /** Where auto-scroll last put the view: a view above it means the visitor moved, even before their scroll event. */
  private followedTo = 0;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly jump: HTMLButtonElement,
  ) {
    scroller.addEventListener('scroll', () => {
      this.pinned = atBottom(scroller);
      if (this.pinned) jump.hidden = true;
    });
    // A wheel or a finger moving up means "let me read", at once.
    scroller.addEventListener('wheel', (event) => event.deltaY < 0 && (this.pinned = false), { passive: true });
    scroller.addEventListener('touchmove', () => (this.pinned = atBottom(scroller)), { passive: true });
    jump.addEventListener('click', () => this.pin());
  }

  /** Call after the chat grew. */
  follow(): void {
    const { scroller } = this;
    // (Content that shrank leaves the view lower than that, but still at the bottom.)
    if (this.pinned && scroller.scrollTop < this.followedTo - 4 && !atBottom(scroller)) this.pinned = false;
    if (this.pinned) {
      scroller.scrollTop = scroller.scrollHeight;
      this.followedTo = scroller.scrollTop;
      this.jump.hidden = true;
    } else if (!atBottom(scroller)) {
      this.jump.hidden = false;
    }
  }

  /** After the visitor sent a message or decided: they want to see what follows. */
  pin(): void {
    this.pinned = true;
    this.followedTo = 0;
    this.follow();
  }
}

function atBottom(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight < 48;
}
