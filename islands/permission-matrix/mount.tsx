import { createRoot } from 'react-dom/client';
import { PermissionMatrix, type PermissionMatrixProps } from './PermissionMatrix';

export function mount(element: HTMLElement, props: Record<string, unknown>): void {
  createRoot(element).render(<PermissionMatrix {...(props as unknown as PermissionMatrixProps)} />);
}
