// A short message at the bottom of the screen, optionally with one action (Undo), gone after a while.
let timer: ReturnType<typeof setTimeout> | undefined;

export function toast(text: string, action?: { label: string; run: () => void | Promise<void> }, ms = 6000): void {
  const box = document.querySelector<HTMLElement>('#toast')!;
  clearTimeout(timer);
  const message = document.createElement('span');
  message.textContent = text;
  box.replaceChildren(message);
  if (action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = action.label;
    button.addEventListener(
      'click',
      () => {
        box.hidden = true;
        void action.run();
      },
      { once: true },
    );
    box.append(button);
  }
  box.hidden = false;
  timer = setTimeout(() => (box.hidden = true), ms);
}
