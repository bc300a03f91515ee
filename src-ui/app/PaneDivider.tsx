/**
 * The thread list beside the reading pane: the mailbox body's width decides whether both fit
 * (else the open thread replaces the list), and the divider between them sets the list's
 * width — dragged with the mouse, or focused and moved with the arrow keys, Home and End.
 */
import { useAtomValue } from 'jotai';
import { useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { arrangementFor, clampListWidth, LIST_WIDTH_STEP, listWidthBounds, type PaneArrangement } from '../state/pane-width';
import { useMailActions } from '../state/actions-context';
import { listWidthAtom } from '../state/atoms';
import { useT } from '../kit/i18n';

export interface SplitBody {
  readonly bodyRef: RefObject<HTMLDivElement | null>;
  /** The mailbox body's width in px; 0 until the first ResizeObserver report. */
  readonly bodyWidth: number;
  readonly arrangement: PaneArrangement;
  /** The list's width beside the pane, inside both minimums (what the CSS shows; see layout.css). */
  readonly listWidth: number;
  /** The width chosen with the divider, null for the default: the CSS derives the shown width from it. */
  readonly chosenWidth: number | null;
}

/**
 * Follows the mailbox body's width (window resized, sidebar folded) while the list is beside the pane.
 * Nothing here measures during the render: the list's width comes from CSS (the chosen width
 * in `--list-width`, clamped there by both minimums), so the first paint needs no JS number,
 * and the width arrives from a ResizeObserver, which reports after the browser's own layout
 * instead of forcing one (a getBoundingClientRect in a layout effect cost the sign-in's first
 * render a whole forced layout of the mail screen).
 */
export function useSplitBody(beside: boolean): SplitBody {
  const bodyRef = useRef<HTMLDivElement | null>(null);
  const [bodyWidth, setBodyWidth] = useState(0);
  const chosen = useAtomValue(listWidthAtom);
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!beside || !body || typeof ResizeObserver === 'undefined') return;
    let shown = 0;
    const observer = new ResizeObserver((entries) => {
      const width = entries[entries.length - 1]?.contentRect.width;
      if (width === undefined || width === shown) return;
      const flips = arrangementFor(width) !== arrangementFor(shown);
      shown = width;
      // The observer reports before the frame is painted: a change of arrangement (too narrow
      // for both panes) renders at once, so a narrow window never paints a squeezed pane; a
      // width alone (the divider's numbers) can wait for React's next turn.
      if (flips) flushSync(() => setBodyWidth(width));
      else setBodyWidth(width);
    });
    observer.observe(body);
    return () => observer.disconnect();
  }, [beside]);
  return {
    bodyRef,
    bodyWidth,
    arrangement: beside ? arrangementFor(bodyWidth) : 'side',
    listWidth: clampListWidth(chosen, bodyWidth),
    chosenWidth: chosen,
  };
}

/** The list's style beside the pane: only the chosen (or dragged) width, the CSS does the rest. */
export function listWidthStyle(width: number | null): CSSProperties | undefined {
  return width === null ? undefined : ({ '--list-width': `${width}px` } as CSSProperties);
}

export function PaneDivider({ bodyWidth, listWidth, onPreview }: { bodyWidth: number; listWidth: number; onPreview: (width: number | null) => void }) {
  const t = useT();
  const actions = useMailActions();
  const drag = useRef<{ startX: number; startWidth: number; width: number } | null>(null);
  const { min, max } = listWidthBounds(bodyWidth);
  const clamp = (width: number) => Math.round(Math.min(max, Math.max(min, width)));

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault(); // no text selection while dragging
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    drag.current = { startX: event.clientX, startWidth: listWidth, width: listWidth };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current) return;
    current.width = clamp(current.startWidth + event.clientX - current.startX);
    // Shown at once; written to storage once, when the drag ends.
    onPreview(current.width);
  };
  const endDrag = () => {
    const current = drag.current;
    if (!current) return;
    drag.current = null;
    onPreview(null);
    if (current.width !== current.startWidth) actions.setListWidth(current.width);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? LIST_WIDTH_STEP * 4 : LIST_WIDTH_STEP;
    const next = { ArrowLeft: listWidth - step, ArrowRight: listWidth + step, Home: min, End: max }[event.key];
    if (next === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation(); // not the mailbox's shortcuts
    actions.setListWidth(clamp(next));
  };

  return (
    <div
      className="pane-divider"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('app.resizeReadingPane')}
      aria-controls="thread-list"
      aria-valuenow={listWidth}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuetext={t('app.paneWidths', { list: listWidth, pane: Math.max(0, Math.round(bodyWidth) - listWidth) })}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      onLostPointerCapture={endDrag}
      onKeyDown={onKeyDown}
    />
  );
}
