import { createRoot } from 'react-dom/client';
import { DemoCounter, type DemoCounterProps } from './DemoCounter';

export function mount(element: HTMLElement, props: Record<string, unknown>): void {
  createRoot(element).render(<DemoCounter {...(props as unknown as DemoCounterProps)} />);
}
