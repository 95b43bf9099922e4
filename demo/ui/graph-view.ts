// The toolkit graph at a size where its labels read (12 px, zoomable up, never below 100%), in a
// box that pans; the SVG follows dark mode itself. Selecting a tool shows its calls.
const ZOOMS = [1, 1.25, 1.5, 2];
let zoom = 0;

export function showGraph(container: HTMLElement, svg: string, onTool: (name: string) => void): void {
  // The SVG comes from agent.toolkit.render(), which escapes every name.
  container.innerHTML = svg;
  const picture = container.querySelector('svg');
  if (!picture) return;
  picture.dataset.width = picture.getAttribute('width') ?? '';
  applyZoom(container);
  for (const vertex of picture.querySelectorAll<SVGGElement>('g[data-kind="tool"]')) {
    const name = vertex.dataset.id!;
    vertex.setAttribute('tabindex', '0');
    vertex.setAttribute('role', 'button');
    vertex.setAttribute('aria-label', `Show the calls of ${name}`);
    vertex.style.cursor = 'pointer';
    vertex.addEventListener('click', () => onTool(name));
    vertex.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onTool(name);
      }
    });
  }
}

function applyZoom(container: HTMLElement): void {
  const picture = container.querySelector<SVGSVGElement>('svg');
  const width = Number(picture?.dataset.width);
  if (picture && width) picture.style.width = `${width * ZOOMS[zoom]!}px`;
  document.querySelector('#zoom-level')!.textContent = `${Math.round(ZOOMS[zoom]! * 100)}%`;
  document.querySelector<HTMLButtonElement>('#zoom-out')!.disabled = zoom === 0;
  document.querySelector<HTMLButtonElement>('#zoom-in')!.disabled = zoom === ZOOMS.length - 1;
}

export function startZoom(container: HTMLElement): void {
  document.querySelector('#zoom-in')!.addEventListener('click', () => {
    zoom = Math.min(ZOOMS.length - 1, zoom + 1);
    applyZoom(container);
  });
  document.querySelector('#zoom-out')!.addEventListener('click', () => {
    zoom = Math.max(0, zoom - 1);
    applyZoom(container);
  });
}
