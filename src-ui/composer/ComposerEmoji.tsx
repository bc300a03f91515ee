/**
 * The composer's emoji button (issue 14 point 6): a popover with emoji-picker-element,
 * loaded on first open (its own chunk, never in the entry bundle), fed from the data the
 * build copies beside the bundles (build.mjs copyEmojiData: en and de) — never the picker's
 * default CDN. The picker brings search, keyboard moves (arrows in its grid, Enter picks),
 * the frequently used emoji first and a skin-tone choice; the pick goes in at the caret.
 * Escape closes it and gives the focus back to the body.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Icon } from '../kit/icons';
import { useLocale, useT } from '../kit/i18n';
import type { RichTextEditorHandle } from './RichTextEditor';

/** Where build.mjs puts each language's data (served by the gateway, same origin). */
export const emojiDataUrl = (locale: string) => `/build/emoji/${locale.startsWith('de') ? 'de' : 'en'}.json`;

export function ComposerEmoji({ editor }: { editor: RefObject<RichTextEditorHandle | null> }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    editor.current?.focus();
  };
  return (
    <span className="tern-emoji">
      <button type="button" className="tern-icon-button" aria-label={t('writing.emoji')} title={t('writing.emoji')} aria-expanded={open} aria-haspopup="dialog" onClick={() => setOpen((value) => !value)}>
        <Icon name="smile" />
      </button>
      {open && (
        <EmojiPopover
          onPick={(emoji) => {
            setOpen(false);
            editor.current?.insertText(emoji);
          }}
          onClose={close}
        />
      )}
    </span>
  );
}

function EmojiPopover(props: { onPick: (emoji: string) => void; onClose: () => void }) {
  const t = useT();
  const locale = useLocale();
  const holder = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const onPick = useRef(props.onPick);
  onPick.current = props.onPick;
  useEffect(() => {
    let cancelled = false;
    let picker: HTMLElement | null = null;
    const language = locale.startsWith('de') ? 'de' : 'en';
    Promise.all([import('emoji-picker-element'), language === 'de' ? import('emoji-picker-element/i18n/de.js') : null])
      .then(([{ Picker }, i18n]) => {
        if (cancelled || !holder.current) return;
        const created = new Picker({ dataSource: emojiDataUrl(language), locale: language, ...(i18n ? { i18n: i18n.default } : {}) });
        // The app's theme, not only the system's (a person may pick dark in Settings).
        created.classList.add(document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');
        created.addEventListener('emoji-click', (event) => {
          const unicode = event.detail.unicode;
          if (unicode) onPick.current(unicode);
        });
        holder.current.append(created);
        picker = created;
        setState('ready');
        // Its search field takes the focus: type to find, arrows to move, Enter to pick.
        requestAnimationFrame(() => (created.shadowRoot?.querySelector('input') as HTMLInputElement | null)?.focus());
      })
      .catch(() => !cancelled && setState('failed'));
    return () => {
      cancelled = true;
      picker?.remove();
    };
  }, [locale]);
  return (
    <div
      className="tern-emoji-popover"
      role="dialog"
      aria-label={t('writing.emojiPicker')}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // Only the popover closes, not the composer.
        event.preventDefault();
        event.stopPropagation();
        props.onClose();
      }}
    >
      {state === 'loading' && <p className="tern-emoji-status">{t('writing.emojiLoading')}</p>}
      {state === 'failed' && (
        <p className="tern-emoji-status" role="alert">
          {t('writing.emojiFailed')}
        </p>
      )}
      <div ref={holder} />
    </div>
  );
}
