// A table of many rows of which only those in view (and a few around them) are in the page:
// 50,000 clusters make ~40 rows of DOM, so scrolling and filtering stay smooth. Rows have one
// fixed height; the rows above and below the window are stood in for by two spacer rows, so the
// scroll bar is the whole table's. Screen readers are told the full count (aria-rowcount) and
// each row's place in it (aria-rowindex).
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Rows kept above and below the visible ones, so a quick scroll does not show blank space. */
const OVERSCAN = 8;

export interface VirtualTableProps {
  /** The table's accessible name. */
  label: string;
  /** Header cells (th), in column order; each with a class that sets its width. */
  columns: { label: string; className: string }[];
  rowCount: number;
  rowHeight: number;
  /** The cells of the row at `index` (td elements). */
  row: (index: number) => ComponentChildren;
  rowKey: (index: number) => string;
  /** Scrolls back to the top when this changes (a new filter). */
  resetKey: unknown;
}

export function VirtualTable({ label, columns, rowCount, rowHeight, row, rowKey, resetKey }: VirtualTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const frame = useRef(0);

  useLayoutEffect(() => {
    const element = scroller.current!;
    setHeight(element.clientHeight);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
  }, [resetKey]);

  const onScroll = () => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setScrollTop(scroller.current?.scrollTop ?? 0);
    });
  };

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(rowCount, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const rows = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <tr key={rowKey(i)} aria-rowindex={i + 2} class="vrow">
        {row(i)}
      </tr>,
    );
  }
  return (
    <div
      class="vtable"
      ref={scroller}
      onScroll={onScroll}
      style={{ height: `min(70vh, ${(rowCount + 1) * rowHeight + 4}px)` }}
    >
      <table aria-label={label} aria-rowcount={rowCount + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((column) => (
              <th scope="col" class={column.className}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr aria-hidden="true" class="spacer">
              <td colSpan={columns.length} style={{ height: `${first * rowHeight}px` }} />
            </tr>
          )}
          {rows}
          {last < rowCount && (
            <tr aria-hidden="true" class="spacer">
              <td colSpan={columns.length} style={{ height: `${(rowCount - last) * rowHeight}px` }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
