/**
 * The address book's list, virtual like the thread list (kit/virtual-window.ts): rows of one
 * height, only those on screen (and an overscan) in the DOM, so 20,000 cards scroll as 50 do.
 * One Tab stop: arrow keys, Page Up/Down, Home and End move the active row, Enter opens it.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { contactHue } from '../../shared/contacts';
import { Avatar } from '../kit/Avatar';
import { useT } from '../kit/i18n';
import { renderedRange, scrollTopToShow } from '../kit/virtual-window';
import type { ListedCard } from './use-contact-book';

export const CONTACT_ROW_HEIGHT = 56;

export function ContactList({ cards, openId, onOpen }: { cards: readonly ListedCard[]; openId: string | null; onOpen: (id: string) => void }) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ scrollTop: 0, height: 600 });
  const [active, setActive] = useState(0);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setView({ scrollTop: element.scrollTop, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // A new search starts at its first row.
  useEffect(() => setActive((index) => Math.min(index, Math.max(0, cards.length - 1))), [cards.length]);

  const range = renderedRange({ scrollTop: view.scrollTop, viewportHeight: view.height, rowHeight: CONTACT_ROW_HEIGHT, total: cards.length });
  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(cards.length - 1, index));
    setActive(next);
    const element = scroller.current;
    if (element) element.scrollTop = scrollTopToShow({ index: next, rowHeight: CONTACT_ROW_HEIGHT, scrollTop: element.scrollTop, viewportHeight: element.clientHeight });
  };
  const page = Math.max(1, Math.floor(view.height / CONTACT_ROW_HEIGHT) - 1);
  const onKeyDown = (event: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(active + 1),
      ArrowUp: () => moveTo(active - 1),
      PageDown: () => moveTo(active + page),
      PageUp: () => moveTo(active - page),
      Home: () => moveTo(0),
      End: () => moveTo(cards.length - 1),
      Enter: () => cards[active] && onOpen(cards[active]!.card.id),
    };
    const run = keys[event.key];
    if (!run) return;
    event.preventDefault();
    run();
  };

  const rows = [];
  for (let index = range.start; index < range.end; index++) {
    const { card, name } = cards[index]!;
    rows.push(
      <div
        key={card.id}
        id={`contact-row-${card.id}`}
        role="option"
        aria-selected={card.id === openId}
        className={`contact-row${index === active ? ' contact-row-active' : ''}${card.id === openId ? ' contact-row-open' : ''}`}
        style={{ transform: `translateY(${index * CONTACT_ROW_HEIGHT}px)` }}
        onClick={() => {
          setActive(index);
          onOpen(card.id);
        }}
      >
        <Avatar name={name} email={card.emails[0] ?? ''} hue={contactHue(card)} size={36} />
        <span className="contact-row-text">
          <span className="contact-row-name">{name}</span>
          <span className="contact-row-detail">{[card.emails[0], card.company].filter(Boolean).join(' · ')}</span>
        </span>
        {card.unsynced ? <span className="contact-row-unsynced" title={t('contacts.unsynced')} aria-label={t('contacts.unsynced')} /> : null}
      </div>,
    );
  }
  const activeCard = cards[active];
  return (
    <div
      ref={scroller}
      className="contact-list"
      role="listbox"
      tabIndex={0}
      aria-label={t('contacts.listLabel', { count: cards.length })}
      aria-activedescendant={activeCard && active >= range.start && active < range.end ? `contact-row-${activeCard.card.id}` : undefined}
      onKeyDown={onKeyDown}
      onScroll={(event) => setView({ scrollTop: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })}
    >
      <div className="contact-list-space" style={{ height: cards.length * CONTACT_ROW_HEIGHT }}>
        {rows}
      </div>
    </div>
  );
}
