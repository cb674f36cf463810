// The island mount loop (after GOV.UK Frontend's initAll): finds every [data-island] element, loads that
// island's code (its own chunk, React included, fetched only on pages that have islands) and mounts it in its
// own try/catch, so one broken island never takes the page or the others down. The server-rendered content
// inside the element is the fallback and stays until the island replaces it.
export interface IslandModule {
  mount(element: HTMLElement, props: Record<string, unknown>): void;
}

export const registry: Record<string, () => Promise<IslandModule>> = {
  'demo-counter': () => import('./demo-counter/mount'),
  'permission-matrix': () => import('./permission-matrix/mount'),
  'import-code-editor': () => import('./import-code-editor/mount'),
  'bilanz-editor': () => import('./bilanz-editor/mount'),
  tankstelle: () => import('./tankstelle/mount'),
};

function readProps(element: HTMLElement): Record<string, unknown> {
  const raw = element.dataset.props;
  if (!raw) return {};
  const parsed = JSON.parse(raw);
  return parsed && typeof parsed === 'object' ? parsed : {};
}

export async function mountAll(root: ParentNode = document): Promise<void> {
  const elements = Array.from(root.querySelectorAll<HTMLElement>('[data-island]'));
  await Promise.all(
    elements.map(async (element) => {
      const name = element.dataset.island!;
      try {
        const load = registry[name];
        if (!load) throw new Error(`unknown island "${name}"`);
        const island = await load();
        island.mount(element, readProps(element));
        element.dataset.islandMounted = 'true';
      } catch (err) {
        element.dataset.islandFailed = 'true';
        console.error(`island ${name} failed to mount`, err);
      }
    }),
  );
}

void mountAll();
