/** The settings dropdown (spec §2): light, dark or system theme, the four views, and the sender name. */
import { useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useState } from 'react';
import { Icon, type IconName } from '../kit/icons';
import { MenuButton } from '../kit/Menu';
import { useMailActions } from '../state/actions-context';
import { themeChoiceAtom, viewModeAtom } from '../state/atoms';
import { THEME_CHOICES, type ThemeChoice } from '../theme/theme';
import { VIEW_MODE_INFO, VIEW_MODES } from '../state/view-mode';
import { useT, type MessageId } from '../kit/i18n';

// Loaded when asked for: most sessions never open it.
const SenderNameDialog = lazy(() => import('./SenderNameDialog'));

const THEME_LABELS: Record<ThemeChoice, { label: MessageId; icon: IconName }> = {
  light: { label: 'settingsMenu.themeLight', icon: 'sun' },
  dark: { label: 'settingsMenu.themeDark', icon: 'moon' },
  system: { label: 'settingsMenu.themeSystem', icon: 'monitor' },
};

export function SettingsMenu() {
  const t = useT();
  const theme = useAtomValue(themeChoiceAtom);
  const view = useAtomValue(viewModeAtom);
  const actions = useMailActions();
  const [senderNamesOpen, setSenderNamesOpen] = useState(false);
  const navigate = useNavigate();
  return (
    <>
      <MenuButton
        label={t('settingsMenu.settings')}
        menuClassName="settings-menu"
        entries={[
          {
            kind: 'group',
            id: 'theme',
            label: t('settingsMenu.theme'),
            items: THEME_CHOICES.map((choice) => ({
              id: `theme-${choice}`,
              label: t(THEME_LABELS[choice].label),
              icon: THEME_LABELS[choice].icon,
              checked: theme === choice,
              onSelect: () => actions.setTheme(choice),
            })),
          },
          { kind: 'separator', id: 'separator' },
          {
            kind: 'group',
            id: 'view',
            label: t('settingsMenu.view'),
            items: VIEW_MODES.map((mode) => ({
              id: `view-${mode}`,
              label: t(VIEW_MODE_INFO[mode].label),
              description: t(VIEW_MODE_INFO[mode].description),
              checked: view === mode,
              onSelect: () => actions.setViewMode(mode),
            })),
          },
          { kind: 'separator', id: 'separator-account' },
          { kind: 'item', id: 'all-settings', label: t('settings.allSettings'), icon: 'settings', onSelect: () => void navigate({ to: '/settings' }) },
          { kind: 'item', id: 'sender-name', label: t('settingsMenu.senderName2'), icon: 'compose', description: t('settingsMenu.theNameNextTo'), onSelect: () => setSenderNamesOpen(true) },
        ]}
      >
        <Icon name="settings" size={20} />
      </MenuButton>
      {senderNamesOpen && (
        <Suspense fallback={null}>
          <SenderNameDialog onClose={() => setSenderNamesOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
