/**
 * The thread list beside the reading pane: the mailbox body's width decides whether both fit
 * (else the open thread replaces the list), and the divider between them sets the list's
 * width — dragged with the mouse, or focused and moved with the arrow keys, Home and End.
 */
import { useAtomValue } from 'jotai';
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { arrangementFor, clampListWidth, LIST_WIDTH_STEP, listWidthBounds, type PaneArrangement } from '../state/pane-width';
import { useMailActions } from '../state/actions-context';
import { listWidthAtom } from '../state/atoms';

export interface SplitBody {
  readonly bodyRef: RefObject<HTMLDivElement | null>;
  /** The mailbox body's width in px; 0 until laid out. */
  readonly bodyWidth: number;
  readonly arrangement: PaneArrangement;
  /** The list's width beside the pane, inside both minimums. */
  readonly listWidth: number;
}

/** Follows the mailbox body's width (window resized, sidebar folded) while the list is beside the pane. */
export function useSplitBody(beside: boolean): SplitBody {
  const bodyRef = useRef<HTMLDivElement | null>(null);
  const [bodyWidth, setBodyWidth] = useState(0);
  const chosen = useAtomValue(listWidthAtom);
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!beside || !body) return;
    // Measured before the first paint, so a narrow window never flashes a squeezed pane.
    setBodyWidth(body.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) setBodyWidth(entry.contentRect.width);
    });
    observer.observe(body);
    return () => observer.disconnect();
  }, [beside]);
  return {
    bodyRef,
    bodyWidth,
    arrangement: beside ? arrangementFor(bodyWidth) : 'side',
    listWidth: clampListWidth(chosen, bodyWidth),
  };
}

export function PaneDivider({ bodyWidth, listWidth, onPreview }: { bodyWidth: number; listWidth: number; onPreview: (width: number | null) => void }) {
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
      aria-label="Resize reading pane"
      aria-controls="thread-list"
      aria-valuenow={listWidth}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuetext={`List ${listWidth} px wide, reading pane ${Math.max(0, Math.round(bodyWidth) - listWidth)} px`}
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
