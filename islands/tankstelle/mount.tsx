import { createRoot } from 'react-dom/client';
import { Tankstelle, type TankstelleProps } from './Tankstelle';

export function mount(element: HTMLElement, props: Record<string, unknown>): void {
  // The server's HTML stays on screen until the island's first load has answered (no empty flash).
  const vorab = element.innerHTML;
  createRoot(element).render(<Tankstelle {...(props as unknown as TankstelleProps)} vorab={vorab} />);
}
