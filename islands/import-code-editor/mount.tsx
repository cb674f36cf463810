import { createRoot } from 'react-dom/client';
import { ImportCodeEditor, type ImportCodeEditorProps } from './ImportCodeEditor';

export function mount(element: HTMLElement, props: Record<string, unknown>): void {
  createRoot(element).render(<ImportCodeEditor {...(props as unknown as ImportCodeEditorProps)} />);
}
