import { createRoot } from 'react-dom/client';
import { BilanzEditor, type BilanzEditorProps } from './BilanzEditor';

export function mount(element: HTMLElement, props: Record<string, unknown>): void {
  createRoot(element).render(<BilanzEditor {...(props as unknown as BilanzEditorProps)} />);
}
