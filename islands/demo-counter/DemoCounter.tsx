// A demo island for the style guide: proves the path from the Vite build to the browser, and that islands
// use the shell's toasts. Texts arrive as props (translated on the server).
import { useState } from 'react';
import { toast } from '../lib/toasts';

export interface DemoCounterProps {
  start?: number;
  labels: { count: string; increment: string; reset: string; toast: string };
}

export function DemoCounter({ start = 0, labels }: DemoCounterProps) {
  const [count, setCount] = useState(start);
  return (
    <div className="demo-counter">
      <p aria-live="polite">
        {labels.count}: <strong data-testid="count">{count}</strong>
      </p>
      <div className="button-row">
        <button type="button" className="btn btn-primary" onClick={() => setCount((c) => c + 1)}>
          {labels.increment}
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            setCount(start);
            toast({ title: labels.toast, type: 'success' });
          }}
        >
          {labels.reset}
        </button>
      </div>
    </div>
  );
}
