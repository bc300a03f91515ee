/** The `?` dialog: every keyboard shortcut, grouped. */
import { useAtom } from 'jotai';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Icon } from '../kit/icons';
import { shortcutsOpenAtom } from '../state/atoms';
import { SHORTCUTS, type Shortcut } from './shortcuts';
import { useT } from '../kit/i18n';

const GROUPS: readonly Shortcut['group'][] = ['Navigation', 'Actions', 'Writing', 'Application'];

export function ShortcutsDialog() {
  const t = useT();
  const [open, setOpen] = useAtom(shortcutsOpenAtom);
  const closeRef = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<Element | null>(null);

  useEffect(() => {
    if (!open) return;
    returnTo.current = document.activeElement;
    closeRef.current?.focus();
    return () => (returnTo.current as HTMLElement | null)?.focus?.();
  }, [open]);

  if (!open) return null;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' || event.key === '?') {
      event.preventDefault();
      setOpen(false);
    } else if (event.key === 'Tab') {
      // The close button is the dialog's only control: the focus stays on it.
      event.preventDefault();
      closeRef.current?.focus();
    }
  };
  return (
    <div className="dialog-backdrop" onClick={(event) => event.target === event.currentTarget && setOpen(false)}>
      <div role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" className="dialog shortcuts-dialog" onKeyDown={onKeyDown}>
        <div className="dialog-header">
          <h2 id="shortcuts-title">{t('keyboard.keyboardShortcuts')}</h2>
          <button ref={closeRef} type="button" className="icon-button" aria-label={t('common.close')} onClick={() => setOpen(false)}>
            <Icon name="close" size={18} />
          </button>
        </div>
        <div className="shortcuts-grid">
          {GROUPS.map((group) => (
            <section key={group} aria-labelledby={`shortcuts-${group}`}>
              <h3 id={`shortcuts-${group}`}>{t(`keyboard.group${group}`)}</h3>
              <dl className="shortcuts-list">
                {SHORTCUTS.filter((shortcut) => shortcut.group === group).map((shortcut) => (
                  <div key={shortcut.action} className="shortcut">
                    <dt>
                      {shortcut.keys.map((key, i) => (
                        <span key={key}>
                          {i > 0 && <span className="shortcut-or"> {t('keyboard.or')} </span>}
                          <kbd>{key}</kbd>
                        </span>
                      ))}
                    </dt>
                    <dd>{t(shortcut.description)}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}
