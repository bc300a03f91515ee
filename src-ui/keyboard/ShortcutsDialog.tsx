/** The `?` dialog: every keyboard shortcut, grouped (a kit ModalDialog: Escape, `?` or a click outside closes it). */
import { useAtom } from 'jotai';
import { ModalDialog } from '../kit/ModalDialog';
import { shortcutsOpenAtom } from '../state/atoms';
import { SHORTCUTS, type Shortcut } from './shortcuts';
import { useT } from '../kit/i18n';

const GROUPS: readonly Shortcut['group'][] = ['Navigation', 'Actions', 'Writing', 'Application'];

export function ShortcutsDialog() {
  const t = useT();
  const [open, setOpen] = useAtom(shortcutsOpenAtom);
  if (!open) return null;
  return (
    <ModalDialog
      title={t('keyboard.keyboardShortcuts')}
      className="shortcuts-dialog"
      closeOnBackdrop
      onClose={() => setOpen(false)}
      onKeyDown={(event) => {
        // `?` opened it and closes it again.
        if (event.key === '?') {
          event.preventDefault();
          setOpen(false);
        }
      }}
    >
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
    </ModalDialog>
  );
}
