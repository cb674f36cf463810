// The import-code editor: the server's textarea (same name, id and text, so the form posts it as before) with
// line numbers, the faulty lines marked in the gutter and behind the text, and the problems listed below as you
// type, each a button that puts the caret on its line. Validation runs in the browser with the server's own
// parser; the server checks again on submit. No editor library: a textarea keeps undo, selection, screen
// readers and mobile keyboards working as everywhere else.
import { useDeferredValue, useMemo, useRef, useState, type UIEvent } from 'react';
import type { ImportTyp } from '../../src/features/bewegungsdaten-import/mapping';
import { diagnose, fill, lineCount, lineRange } from './editor';
import { iconHref } from '../lib/icons';

export interface ImportCodeEditorProps {
  typ: ImportTyp;
  name: string;
  id: string;
  value: string;
  /** Ids of the hint above the editor. */
  describedBy: string;
  /** Error code → message template, in the page's language. */
  messages: Record<string, string>;
  labels: Record<'lineError' | 'valid' | 'invalidOne' | 'invalidOther' | 'gutterError' | 'goToLine' | 'lines', string>;
}

export function ImportCodeEditor(props: ImportCodeEditorProps) {
  const { labels } = props;
  const [text, setText] = useState(props.value);
  const checked = useDeferredValue(text);
  const diagnostics = useMemo(() => diagnose(checked, props.typ, props.messages), [checked, props.typ, props.messages]);
  const faulty = useMemo(() => {
    const map = new Map<number, string[]>();
    for (const d of diagnostics) map.set(d.line, [...(map.get(d.line) ?? []), d.message]);
    return map;
  }, [diagnostics]);
  const lines = Array.from({ length: lineCount(text) }, (_, i) => i + 1);
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const errorsId = `${props.id}-errors`;

  const onScroll = (e: UIEvent<HTMLTextAreaElement>) => {
    const { scrollTop, scrollLeft } = e.currentTarget;
    if (gutter.current) gutter.current.scrollTop = scrollTop;
    if (backdrop.current) {
      backdrop.current.scrollTop = scrollTop;
      backdrop.current.scrollLeft = scrollLeft;
    }
  };

  const goTo = (line: number) => {
    const el = area.current;
    if (!el) return;
    const [start, end] = lineRange(el.value, line);
    el.focus();
    el.setSelectionRange(start, end);
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight) || 24;
    el.scrollTop = Math.max(0, (line - 3) * lineHeight);
  };

  const count = diagnostics.length;
  return (
    <>
      <div className={`code-editor${count ? ' has-errors' : ''}`}>
        <div className="code-gutter" ref={gutter} aria-hidden="true" title={labels.lines}>
          {lines.map((n) => (
            <div key={n} className={`code-line-number${faulty.has(n) ? ' is-faulty' : ''}`} title={faulty.has(n) ? `${fill(labels.gutterError, { line: n })}: ${faulty.get(n)!.join(' ')}` : undefined}>
              {faulty.has(n) && <span className="code-marker">!</span>}
              {n}
            </div>
          ))}
        </div>
        <div className="code-body">
          <div className="code-backdrop" ref={backdrop} aria-hidden="true">
            {lines.map((n) => (
              <div key={n} className={`code-line${faulty.has(n) ? ' is-faulty' : ''}`}>
                {'\u00a0'}
              </div>
            ))}
          </div>
          <textarea
            ref={area}
            id={props.id}
            name={props.name}
            className="code-textarea"
            value={text}
            rows={16}
            wrap="off"
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            aria-invalid={count > 0 ? true : undefined}
            aria-describedby={`${props.describedBy} ${errorsId}`}
            onChange={(e) => setText(e.currentTarget.value)}
            onScroll={onScroll}
          />
        </div>
      </div>
      <div id={errorsId} className="code-errors">
        <p className={count ? 'error-text' : 'code-valid'} role="status">
          <svg className="icon" aria-hidden="true">
            <use href={iconHref(count ? 'warning' : 'check')} />
          </svg>
          {count ? fill(count === 1 ? labels.invalidOne : labels.invalidOther, { count }) : labels.valid}
        </p>
        {count > 0 && (
          <ul>
            {diagnostics.map((d, i) => (
              <li key={`${d.line}-${i}`}>
                <button type="button" className="code-error-link" onClick={() => goTo(d.line)} aria-label={`${fill(labels.lineError, { line: d.line, message: d.message })} – ${fill(labels.goToLine, { line: d.line })}`}>
                  {fill(labels.lineError, { line: d.line, message: d.message })}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
