/**
 * Swipe a row on a touch screen (issue 20): right to archive, left to delete, each with the
 * toast's Undo like the toolbar's buttons. One set of pointer handlers on the list, not on
 * each row (rows are memoised and recycled by the virtual window); the row follows the
 * finger through the CSS `translate` property, which leaves its `transform` (its place in
 * the list) alone. Mouse pointers never swipe: the mouse and the keyboard work as before.
 */
import { useRef, type PointerEvent } from 'react';

export type SwipeDirection = 'archive' | 'delete';

/** How far (a share of the row's width) a row must travel to count; less springs back. */
export const SWIPE_COMMIT_SHARE = 0.35;
/** Movement before a gesture is a swipe rather than a tap or a vertical scroll (px). */
const SLOP_PX = 10;

interface Gesture {
  readonly pointerId: number;
  readonly row: HTMLElement;
  readonly key: string;
  readonly startX: number;
  readonly startY: number;
  swiping: boolean;
  dx: number;
}

/** What a finished gesture means: a direction past the threshold, or nothing. */
export function swipeOutcome(dx: number, rowWidth: number): SwipeDirection | null {
  if (rowWidth <= 0 || Math.abs(dx) < rowWidth * SWIPE_COMMIT_SHARE) return null;
  return dx > 0 ? 'archive' : 'delete';
}

export function useRowSwipe(onSwipe: ((key: string, direction: SwipeDirection) => void) | undefined, labels: Readonly<Record<SwipeDirection, string>>) {
  const gesture = useRef<Gesture | null>(null);
  /** A swipe ends with a click on the row under the finger: that click must not open it. */
  const swallowClick = useRef(false);

  const reset = (row: HTMLElement) => {
    row.style.translate = '';
    row.classList.remove('is-swiping');
    delete row.dataset.swipe;
    delete row.dataset.swipeLabel;
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    swallowClick.current = false;
    if (!onSwipe || event.pointerType === 'mouse' || !event.isPrimary) return;
    const row = (event.target as Element).closest<HTMLElement>('.thread-row:not(.is-placeholder)');
    const key = row?.id.startsWith('thread-') ? row.id.slice('thread-'.length) : null;
    if (!row || !key) return;
    gesture.current = { pointerId: event.pointerId, row, key, startX: event.clientX, startY: event.clientY, swiping: false, dx: 0 };
  };

  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.startX;
    const dy = event.clientY - current.startY;
    if (!current.swiping) {
      // A vertical move is the list scrolling: this gesture is not ours.
      if (Math.abs(dy) > SLOP_PX && Math.abs(dy) >= Math.abs(dx)) return void (gesture.current = null);
      if (Math.abs(dx) < SLOP_PX) return;
      current.swiping = true;
      current.row.classList.add('is-swiping');
      try {
        event.currentTarget.setPointerCapture(event.pointerId);
      } catch {
        // The pointer is gone already (lifted between events): the up event still ends the gesture.
      }
    }
    current.dx = dx;
    const direction: SwipeDirection = dx > 0 ? 'archive' : 'delete';
    current.row.style.translate = `${dx}px 0`;
    current.row.dataset.swipe = direction;
    current.row.dataset.swipeLabel = labels[direction];
  };

  const finish = (event: PointerEvent<HTMLElement>, cancelled: boolean) => {
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId) return;
    gesture.current = null;
    if (!current.swiping) return;
    swallowClick.current = true;
    const outcome = cancelled ? null : swipeOutcome(current.dx, current.row.offsetWidth);
    reset(current.row);
    if (outcome) onSwipe?.(current.key, outcome);
  };

  return {
    onPointerDown,
    onPointerMove,
    onPointerUp: (event: PointerEvent<HTMLElement>) => finish(event, false),
    onPointerCancel: (event: PointerEvent<HTMLElement>) => finish(event, true),
    onClickCapture: (event: React.MouseEvent) => {
      if (!swallowClick.current) return;
      swallowClick.current = false;
      event.stopPropagation();
      event.preventDefault();
    },
  };
}
