/**
 * The thread list: a multi-select `listbox`, virtualised by hand. Rows have one fixed
 * height and sit at `index × height` inside a spacer as tall as the whole list, so only
 * the rows on screen (plus overscan) exist in the DOM, whatever the list's length. The
 * rows come from the window the worker pushes; scrolling near its edge moves it.
 */
import { useAtomValue, useStore } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { ThreadRow } from '../../shared/worker-mail-api';
import type { ViewLayout } from '../state/view-mode';
import { useMailActions } from '../state/actions-context';
import { accountsAtom, cursorAtom, ownEmailsByAccountAtom, selectionAnchorAtom, selectionAtom, visibleListAtom, type ThreadListState } from '../state/atoms';
import { indexOfKey, listDisplay, rowAt, type HeldList } from '../state/thread-list/list-patch';
import { selectOnly, selectRange, toggleRow } from '../state/thread-list/selection';
import { draggedThreads, THREAD_DRAG_TYPE } from '../state/thread-list/thread-drag';
import { useRowSwipe, type SwipeDirection } from './row-swipe';
import { PlaceholderRow, rowElementId, ThreadRowView, type RowPart } from './ThreadRowView';
import { needsWindowMove, renderedRange, sameRange, scrollTopToShow, windowAround } from '../kit/virtual-window';
import { useT } from '../kit/i18n';
import { isImportantRow, priorityAccountsAtom } from '../state/priority';
import { WhyImportant } from './WhyImportant';
import { useNearPrefetch } from './near-prefetch';

/** Height of a priority inbox's section heading ("Important", "Everything else"), as thread-list.css draws it. */
export const SECTION_HEADING_PX = 30;

/**
 * Where a priority inbox's rows sit below `index × height`: the headings above them. The
 * Important section is the list's first `important` rows; "Everything else" heads the rest.
 * No sections (0): another list, or nothing important.
 */
export function sectionShift(index: number, important: number | undefined, total: number): number {
  if (!important) return 0;
  return index < important || total <= important ? SECTION_HEADING_PX : 2 * SECTION_HEADING_PX;
}

export interface ThreadListProps {
  /** The listbox's accessible name, e.g. "Inbox". */
  readonly label: string;
  readonly layout: ViewLayout;
  /** Key of the thread open in the reading pane. */
  readonly openKey: string | null;
  /** Mark rows with their account's colour (lists that mix accounts). */
  readonly showAccountMarkers: boolean;
  /** What an empty list says (an empty folder, or no search results). */
  readonly emptyState: ReactNode;
  readonly onOpen: (row: ThreadRow, index: number) => void;
  /** A row swiped on a touch screen (row-swipe.ts): archive or delete it. */
  readonly onSwipe?: (row: ThreadRow, direction: SwipeDirection) => void;
  readonly id?: string;
}

const NO_EMAILS: ReadonlySet<string> = new Set();
const startOfToday = () => new Date().setHours(0, 0, 0, 0);

/** The cursor's index in the whole list: where its thread is now, or where it was. */
export function cursorIndexOf(held: HeldList | null, cursor: { readonly key: string | null; readonly index: number }): number {
  const total = held?.total ?? 0;
  const byKey = cursor.key ? indexOfKey(held, cursor.key) : -1;
  return Math.max(0, Math.min(byKey >= 0 ? byKey : cursor.index, total - 1));
}

/** The cursor's index in the list shown. */
export function useCursorIndex(): number {
  return cursorIndexOf(useAtomValue(visibleListAtom).held, useAtomValue(cursorAtom));
}

export function ThreadList(props: ThreadListProps) {
  const { layout, openKey, onOpen } = props;
  const store = useStore();
  const actions = useMailActions();
  const list = useAtomValue(visibleListAtom);
  const selection = useAtomValue(selectionAtom);
  const ownEmails = useAtomValue(ownEmailsByAccountAtom);
  const accounts = useAtomValue(accountsAtom) ?? [];
  const cursorIndex = useCursorIndex();
  const scrollRef = useRef<HTMLDivElement>(null);
  // The first row on screen, updated only when the rows to render change (see onScroll).
  const [viewport, setViewport] = useState(() => ({ firstRow: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight }));
  const [today, setToday] = useState(startOfToday);

  // A new query's results replace the last ones when they arrive; until then the last stay (aria-busy).
  const lastReady = useRef<ThreadListState | null>(null);
  if (list.status === 'ready') lastReady.current = list;
  const shown = list.status === 'loading' && lastReady.current ? lastReady.current : list;
  const held = shown.held;
  const total = held?.total ?? 0;
  const rowHeight = layout.rowHeight;
  const range = renderedRange({ scrollTop: viewport.firstRow * rowHeight, viewportHeight: viewport.height, rowHeight, total });
  const important = held?.important;
  const headings = sectionShift(total, important, total);
  const priorityAccounts = useAtomValue(priorityAccountsAtom);
  const [why, setWhy] = useState<ThreadRow | null>(null);
  const onWhy = useCallback((row: ThreadRow) => setWhy(row), []);

  // The bodies of the rows around the cursor, fetched before they are opened (near-prefetch.ts).
  useNearPrefetch(list.status === 'ready' ? held : null, cursorIndex, range);

  /** The list's scroll position as last seen in a scroll event: effects read this, not the element (a read there forces a layout). */
  const scrollTop = useRef(0);

  // Follow the viewport's size (window resizes, the reading pane opening below). The
  // observer reports after layout; reading clientHeight here would force one.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const measure = (height: number) => setViewport((current) => (height > 0 && height !== current.height ? { ...current, height } : current));
    if (typeof ResizeObserver !== 'function') {
      measure(element.clientHeight);
      return;
    }
    const observer = new ResizeObserver((entries) => measure(entries[0]?.contentRect.height ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Results of another query start at the top.
  const scopeKey = list.scopeKey;
  const shownScope = useRef(scopeKey);
  useLayoutEffect(() => {
    if (shownScope.current === scopeKey) return;
    shownScope.current = scopeKey;
    const element = scrollRef.current;
    if (element && scrollTop.current !== 0) element.scrollTop = 0;
    scrollTop.current = 0;
    setViewport((current) => (current.firstRow === 0 ? current : { ...current, firstRow: 0 }));
  }, [scopeKey]);

  // "14:05" turns into "Mar 4" at midnight.
  useEffect(() => {
    const timer = setTimeout(() => setToday(startOfToday()), startOfToday() + 86_400_000 - Date.now() + 1_000);
    return () => clearTimeout(timer);
  }, [today]);

  /**
   * Scroll events come once per frame, before it is drawn. When the rows to render change
   * (a block scrolls in), they are rendered right there (flushSync), so this frame shows
   * them; otherwise nothing renders, and the frame only scrolls.
   */
  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    scrollTop.current = element.scrollTop;
    // The headings of a priority inbox push rows down a little; the overscan covers the difference.
    const firstRow = Math.floor(Math.max(0, scrollTop.current - latest.current.headings) / rowHeight);
    const { firstRow: shownRow, height, total: rows } = latest.current;
    const facts = { viewportHeight: height, rowHeight, total: rows };
    if (sameRange(renderedRange({ ...facts, scrollTop: firstRow * rowHeight }), renderedRange({ ...facts, scrollTop: shownRow * rowHeight }))) return;
    flushSync(() => setViewport((current) => (current.firstRow === firstRow ? current : { ...current, firstRow })));
  }, [rowHeight]);
  const latest = useRef({ ...viewport, total, headings });
  latest.current = { ...viewport, total, headings };

  // Ask for the next window before the rendered rows reach the edge of the one held.
  useEffect(() => {
    if (list.status !== 'ready' || !list.window) return;
    if (needsWindowMove(list.window, range, total)) actions.moveThreadListWindow(windowAround(range, total));
  }, [list.status, list.window, range.start, range.end, total, actions]);

  // Keep the cursor's row on screen when the keyboard moves it.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || total === 0) return;
    const shift = sectionShift(cursorIndex, important, total);
    const next = scrollTopToShow({ index: cursorIndex, rowHeight, scrollTop: scrollTop.current - shift, viewportHeight: viewport.height }) + shift;
    if (next !== scrollTop.current) {
      element.scrollTop = next;
      scrollTop.current = next;
      setViewport((current) => ({ ...current, firstRow: Math.floor(next / rowHeight) }));
    }
  }, [cursorIndex, rowHeight, total, important]);

  /** Click: open; Ctrl/Cmd-click or the avatar: toggle; Shift-click: select the range from the anchor. */
  const onPress = useCallback(
    (event: MouseEvent, index: number, row: ThreadRow, part: RowPart) => {
      const current = store.get(visibleListAtom).held;
      const anchor = store.get(selectionAnchorAtom);
      store.set(cursorAtom, { key: row.key, index });
      if (event.shiftKey && anchor !== null) {
        const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
        const rows: ThreadRow[] = [];
        for (let i = from; i <= to; i++) {
          const inRange = rowAt(current, i);
          if (inRange) rows.push(inRange);
        }
        store.set(selectionAtom, (selected) => selectRange(selected, rows));
        return;
      }
      store.set(selectionAnchorAtom, index);
      if (event.ctrlKey || event.metaKey || part === 'avatar') {
        store.set(selectionAtom, (selected) => toggleRow(selected, row));
        return;
      }
      store.set(selectionAtom, new Map());
      onOpen(row, index);
    },
    [store, onOpen],
  );

  /** A row dragged onto a sidebar label carries the checked rows when it is one of them (thread-drag.ts). */
  const onDragStart = useCallback(
    (event: DragEvent, row: ThreadRow) => {
      event.dataTransfer.setData(THREAD_DRAG_TYPE, JSON.stringify(draggedThreads(row, store.get(selectionAtom))));
      event.dataTransfer.effectAllowed = 'copy';
    },
    [store],
  );

  const t = useT();
  const { onSwipe } = props;
  const swipe = useRowSwipe(
    onSwipe
      ? (key, direction) => {
          const row = rowAt(store.get(visibleListAtom).held, indexOfKey(store.get(visibleListAtom).held, key));
          if (row) onSwipe(row, direction);
        }
      : undefined,
    { archive: t('device.swipeArchive'), delete: t('device.swipeDelete') },
  );

  /** Arrow keys, Home/End, Page keys and Space while the list has the focus (j/k/x/Enter are global shortcuts). */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey || total === 0) return;
    const page = Math.max(1, Math.floor(viewport.height / rowHeight) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -total, End: total };
    const current = store.get(visibleListAtom).held;
    if (event.key in moves) {
      event.preventDefault();
      const index = Math.max(0, Math.min(total - 1, cursorIndex + (moves[event.key] ?? 0)));
      const row = rowAt(current, index);
      store.set(cursorAtom, { key: row?.key ?? null, index });
      if (event.shiftKey && row) {
        store.set(selectionAtom, (selected) => selectRange(selected, [rowAt(current, cursorIndex), row].filter((r): r is ThreadRow => Boolean(r))));
      }
    } else if (event.key === ' ') {
      event.preventDefault();
      const row = rowAt(current, cursorIndex);
      if (row) {
        store.set(selectionAtom, (selected) => toggleRow(selected, row));
        store.set(selectionAnchorAtom, cursorIndex);
      }
    }
  };

  const hueOf = new Map(accounts.map((account) => [account.accountId, account.iconColor]));
  const labelOf = new Map(accounts.map((account) => [account.accountId, account.label || account.emailAddress]));
  const cursorRow = rowAt(held, cursorIndex);
  const rows: ReactNode[] = [];
  for (let index = range.start; index < range.end; index++) {
    const row = rowAt(held, index);
    rows.push(
      row ? (
        <ThreadRowView
          key={row.key}
          row={row}
          index={index}
          total={total}
          layout={layout}
          selected={selection.has(row.key)}
          cursor={index === cursorIndex}
          open={row.key === openKey}
          accountHue={props.showAccountMarkers ? (hueOf.get(row.accountId) ?? null) : null}
          accountLabel={props.showAccountMarkers ? (labelOf.get(row.accountId) ?? null) : null}
          ownEmails={ownEmails.get(row.accountId) ?? NO_EMAILS}
          today={today}
          onPress={onPress}
          onDragStart={onDragStart}
          shift={sectionShift(index, important, total)}
          important={isImportantRow(row) && priorityAccounts.includes(row.accountId)}
          onWhy={onWhy}
        />
      ) : (
        <PlaceholderRow key={`placeholder-${index}`} index={index} total={total} layout={layout} shift={sectionShift(index, important, total)} />
      ),
    );
  }

  // "Empty" only when the worker knows the list holds nothing; before (first sync) loading rows.
  const display = listDisplay(shown.status, held);
  const empty = display === 'empty';
  return (
    <div className="thread-list-frame">
      {list.status === 'failed' && (
        <div className="list-message" role="alert">
          {list.error}
        </div>
      )}
      {empty && <div className="list-message">{props.emptyState}</div>}
      <div
        ref={scrollRef}
        id={props.id}
        className="thread-list"
        role="listbox"
        aria-label={props.label}
        aria-multiselectable="true"
        aria-busy={list.status === 'loading' || display === 'loading'}
        aria-activedescendant={cursorRow && inRange(range, cursorIndex) ? rowElementId(cursorRow.key) : undefined}
        tabIndex={0}
        hidden={empty}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        {...swipe}
      >
        <div className="thread-list-spacer" role="presentation" style={{ height: total * rowHeight + headings }}>
          {display !== 'loading' && important ? <SectionHeadings important={important} total={total} rowHeight={rowHeight} /> : null}
          {display === 'loading' ? <LoadingRows layout={layout} count={Math.ceil(viewport.height / rowHeight)} /> : rows}
        </div>
      </div>
      {why && <WhyImportant accountId={why.accountId} threadId={why.threadId} onClose={() => setWhy(null)} />}
    </div>
  );
}

const inRange = (range: { start: number; end: number }, i: number) => i >= range.start && i < range.end;

/**
 * The priority inbox's headings. Hidden from screen readers, which hear "Important" in each
 * important row's name instead: a listbox holds options only, and the rows are a flat list.
 */
function SectionHeadings({ important, total, rowHeight }: { important: number; total: number; rowHeight: number }) {
  const t = useT();
  return (
    <>
      <div className="list-section-heading" aria-hidden="true" style={{ transform: 'translateY(0px)', height: SECTION_HEADING_PX }}>
        {t('priority.sectionImportant')}
      </div>
      {total > important && (
        <div className="list-section-heading" aria-hidden="true" style={{ transform: `translateY(${important * rowHeight + SECTION_HEADING_PX}px)`, height: SECTION_HEADING_PX }}>
          {t('priority.sectionEverythingElse')}
        </div>
      )}
    </>
  );
}

function LoadingRows({ layout, count }: { layout: ViewLayout; count: number }) {
  const rows: ReactNode[] = [];
  for (let i = 0; i < Math.min(count, 30); i++) rows.push(<PlaceholderRow key={i} index={i} total={0} layout={layout} />);
  return <>{rows}</>;
}
