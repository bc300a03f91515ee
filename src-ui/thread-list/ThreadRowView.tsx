/**
 * One row of the thread list. Memoised: a row re-renders only when its own props change
 * (list-patch.ts keeps unchanged rows' objects), so a patch of one row paints one row.
 */
import { SENT_LATE_KEYWORD } from '../../shared/send-time';
import { memo, useMemo, type DragEvent, type MouseEvent } from 'react';
import { labelsOf, type Label } from '../../shared/labels';
import { RAISED_MARK_TEXT } from '../state/timers';
import { useAccountLabels } from '../state/labels';
import type { ThreadRow } from '../../shared/worker-mail-api';
import { Avatar } from '../kit/Avatar';
import { Icon } from '../kit/icons';
import type { ViewLayout } from '../state/view-mode';
import { formatFullTime, formatListTime } from '../kit/date-format';
import { avatarAddress, rowNamesLabel } from './row-format';
import type { Locale } from '../../shared/locales';
import { format, type MessageId, type MessageValues } from '../../shared/strings';
import { useLocale, useT } from '../kit/i18n';

export type RowPart = 'row' | 'avatar';

export interface ThreadRowViewProps {
  readonly row: ThreadRow;
  readonly index: number;
  readonly total: number;
  readonly layout: ViewLayout;
  readonly selected: boolean;
  /** The keyboard cursor is on this row. */
  readonly cursor: boolean;
  /** This thread is open in the reading pane. */
  readonly open: boolean;
  /** Hue of the row's account, when the list mixes accounts; null otherwise. */
  readonly accountHue: number | null;
  /**
   * The row's account (its label or address), when the list mixes accounts; null otherwise.
   * The colour marker alone told only sighted users whose mail a row is (WCAG 1.4.1), so
   * the accessible name says it too.
   */
  readonly accountLabel?: string | null;
  readonly ownEmails: ReadonlySet<string>;
  /** Midnight of today, so "14:05" becomes "Mar 4" when the day changes. */
  readonly today: number;
  readonly onPress: (event: MouseEvent, index: number, row: ThreadRow, part: RowPart) => void;
  /** The row dragged (onto a sidebar label): what the drag carries (thread-drag.ts). */
  readonly onDragStart?: (event: DragEvent, row: ThreadRow) => void;
  /** Pixels the row sits below `index × height`: the section headings above it (a priority inbox). */
  readonly shift?: number;
  /** The row is important and its account's priority inbox is on: the marker shows, and opens "why" (`onWhy`). */
  readonly important?: boolean;
  readonly onWhy?: (row: ThreadRow) => void;
}

export const rowElementId = (key: string) => `thread-${key}`;

/**
 * A row's place in the list. `content-visibility: auto` lets the browser skip the layout
 * and paint of rows rendered ahead of the screen (the overscan) until they scroll near
 * it: a new list or search result lays out the rows on screen, not twice as many. The
 * height is fixed, so a skipped row keeps its size; it stays in the accessibility tree.
 */
const rowStyle = (index: number, rowHeight: number, shift = 0) => ({ transform: `translateY(${index * rowHeight + shift}px)`, height: rowHeight, contentVisibility: 'auto' as const });

/** A scheduled message of the thread left late, the gateway having been down at its time (its Sent copy's keyword). */
const sentLate = (row: ThreadRow) => row.keywords?.some((keyword) => keyword.toLowerCase() === SENT_LATE_KEYWORD.toLowerCase()) ?? false;

/** What a screen reader says for the row: state first, then who, what and when. */
export function rowAccessibleName(row: ThreadRow, senders: string, time: string, accountLabel: string | null = null, locale: Locale = 'en', labels: readonly Label[] = [], important = false): string {
  const say = (id: MessageId, values?: MessageValues) => format(locale, id, values);
  const parts = [
    important ? say('priority.important') : null,
    row.unreadCount > 0 ? say('conversation.unread') : null,
    row.starred ? say('threadList.starred') : null,
    row.draftTo ? say('threadList.draft') : null,
    senders,
    row.subject || say('conversation.noSubject'),
    row.snippet,
    time,
    row.hasAttachments ? say('threadList.hasAttachments') : null,
    labels.length > 0 ? say('labels.rowLabels', { names: labels.map((label) => label.name).join(', ') }) : null,
    row.raised ? say(RAISED_MARK_TEXT[row.raised.kind]) : null,
    sentLate(row) ? say('threadList.sentLate') : null,
    row.pending ? say('threadList.savingChanges') : null,
    accountLabel ? say('threadList.inAccount', { account: accountLabel }) : null,
  ];
  return parts.filter(Boolean).join(', ');
}

export const ThreadRowView = memo(function ThreadRowView(props: ThreadRowViewProps) {
  const { row, index, layout, selected, today, onPress, ownEmails } = props;
  const important = props.important ?? false;
  const accountLabel = props.accountLabel ?? null;
  // The name changes with the row, not with its position: a row moving up (one above it
  // archived) re-renders this shell only (transform, posinset), never its content.
  const locale = useLocale();
  const accountLabels = useAccountLabels(row.accountId);
  const labels = useMemo(() => labelsOf(row.keywords, accountLabels), [row.keywords, accountLabels]);
  const label = useMemo(
    () => rowAccessibleName(row, rowNamesLabel(row, ownEmails, locale), formatFullTime(row.lastMessageAt, locale), accountLabel, locale, labels, important),
    [row, ownEmails, accountLabel, locale, labels, important],
  );
  const className = [
    'thread-row',
    `thread-row-${layout.rowStyle}`,
    row.unreadCount > 0 && 'is-unread',
    selected && 'is-selected',
    props.cursor && 'is-cursor',
    props.open && 'is-open',
    row.pending && 'is-pending',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      role="option"
      id={rowElementId(row.key)}
      className={className}
      aria-selected={selected}
      aria-posinset={index + 1}
      aria-setsize={props.total}
      aria-label={label}
      style={rowStyle(index, layout.rowHeight, props.shift)}
      draggable={props.onDragStart !== undefined}
      onDragStart={props.onDragStart ? (event) => props.onDragStart!(event, row) : undefined}
      onMouseDown={(event) => event.shiftKey && event.preventDefault() /* no text selection on shift-click */}
      onClick={(event) => {
        // One handler for the row and its avatar/checkbox (which toggles): the content below has none, so it never re-renders for a new index.
        if ((event.target as Element).closest?.('.row-important')) return; // the marker's own click ("why")
        const onToggle = (event.target as Element).closest?.('.row-avatar, .row-checkbox');
        onPress(event, index, row, onToggle ? 'avatar' : 'row');
      }}
    >
      <RowContent row={row} layout={layout} selected={selected} accountHue={props.accountHue} accountLabel={accountLabel} ownEmails={ownEmails} today={today} labels={labels} onWhy={important ? props.onWhy : undefined} />
    </div>
  );
});

/** What a row shows; depends on the thread, never on where the row sits in the list. */
const RowContent = memo(function RowContent(props: {
  row: ThreadRow;
  layout: ViewLayout;
  selected: boolean;
  accountHue: number | null;
  accountLabel: string | null;
  ownEmails: ReadonlySet<string>;
  today: number;
  /** The row's labels (its keywords that are the account's labels), shown before the subject. */
  labels: readonly Label[];
  /** An important row's marker, which opens "Why is this important?"; absent: no marker. */
  onWhy?: ((row: ThreadRow) => void) | undefined;
}) {
  const t = useT();
  const locale = useLocale();
  const { row, layout, selected, today } = props;
  const senders = rowNamesLabel(row, props.ownEmails, locale);
  // A draft of its own (Drafts): whom it is to, after a red Draft label (Gmail).
  const names = row.draftTo ? (
    <>
      <span className="row-draft-label">{t('threadList.draft')}</span> {senders}
    </>
  ) : (
    senders
  );
  const time = formatListTime(row.lastMessageAt, Math.max(Date.now(), today), locale);
  const sender = avatarAddress(row.draftTo?.length ? row.draftTo : row.participants, props.ownEmails);
  const subject = row.subject || t('conversation.noSubject');
  const chips = [
    row.raised ? (
      <span key="raised" className="timer-chip" data-kind={row.raised.kind} aria-hidden="true">
        {t(RAISED_MARK_TEXT[row.raised.kind])}
      </span>
    ) : null,
    sentLate(row) ? (
      <span key="sent-late" className="timer-chip is-late" aria-hidden="true">
        {t('threadList.sentLate')}
      </span>
    ) : null,
    ...props.labels.map((label) => (
      <span key={label.id} className="label-chip" data-label-color={label.color} aria-hidden="true">
        {label.name}
      </span>
    )),
  ];
  const isoTime = new Date(row.lastMessageAt).toISOString();
  const onWhy = props.onWhy;
  const marker = onWhy ? (
    <button
      type="button"
      className="row-important"
      aria-label={t('priority.why')}
      title={t('priority.why')}
      onClick={(event) => {
        event.stopPropagation();
        onWhy(row);
      }}
    >
      <Icon name="importantFilled" size={14} />
    </button>
  ) : null;
  const icons = (
    <span className="row-icons">
      {row.hasAttachments && <Icon name="paperclip" size={15} className="row-paperclip" />}
      {row.starred && <Icon name="starFilled" size={15} className="row-star" />}
    </span>
  );
  return (
    <>
      {props.accountHue !== null && <span className="row-account-marker" title={props.accountLabel ?? undefined} style={{ ['--avatar-hue' as string]: String(props.accountHue) }} />}
      {layout.showAvatars ? (
        <span className="row-avatar">
          {selected ? (
            <span className="row-check">
              <Icon name="check" size={16} />
            </span>
          ) : (
            <Avatar name={sender?.name ?? ''} email={sender?.email ?? row.key} size={layout.rowStyle === 'stacked' ? 36 : 28} />
          )}
        </span>
      ) : (
        <span className={selected ? 'row-checkbox is-checked' : 'row-checkbox'}>{selected && <Icon name="check" size={12} />}</span>
      )}
      {layout.rowStyle === 'stacked' ? (
        <div className="row-main">
          <div className="row-line">
            <span className="row-senders">{names}</span>
            <time className="row-time" dateTime={isoTime}>
              {time}
            </time>
          </div>
          <div className="row-line">
            {marker}
            {chips}
            <span className="row-subject">{subject}</span>
            {icons}
          </div>
          <div className="row-snippet">{row.snippet}</div>
        </div>
      ) : (
        <div className="row-main row-main-line">
          <span className="row-senders">{names}</span>
          {marker}
          <span className="row-text">
            {chips}
            <span className="row-subject">{subject}</span>
            {row.snippet && <span className="row-snippet"> — {row.snippet}</span>}
          </span>
          {icons}
          <time className="row-time" dateTime={isoTime}>
            {time}
          </time>
        </div>
      )}
    </>
  );
});

/** A row the window does not hold yet (fast scrolling): a quiet skeleton. */
export const PlaceholderRow = memo(function PlaceholderRow({ index, total, layout, shift = 0 }: { index: number; total: number; layout: ViewLayout; shift?: number }) {
  const t = useT();
  return (
    <div
      role="option"
      aria-selected={false}
      aria-disabled={true}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-label={t('threadList.loadingConversation')}
      className={`thread-row thread-row-${layout.rowStyle} is-placeholder`}
      style={rowStyle(index, layout.rowHeight, shift)}
    >
      <span className="skeleton skeleton-avatar" />
      <span className="skeleton-lines">
        <span className="skeleton skeleton-line" />
        {layout.rowStyle === 'stacked' && <span className="skeleton skeleton-line skeleton-line-short" />}
      </span>
    </div>
  );
});
