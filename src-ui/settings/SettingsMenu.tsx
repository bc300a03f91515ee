/** The settings dropdown (spec §2): light, dark or system theme, the four views, and the sender name. */
import { useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useState } from 'react';
import { Icon, type IconName } from '../kit/icons';
import { MenuButton } from '../kit/Menu';
import { useT } from '../kit/i18n';
import { useMailActions } from '../state/actions-context';
import { themeChoiceAtom, viewModeAtom } from '../state/atoms';
import { THEME_CHOICES, type ThemeChoice } from '../theme/theme';
import { VIEW_MODE_INFO, VIEW_MODES } from '../state/view-mode';

// Loaded when asked for: most sessions never open it.
const SenderNameDialog = lazy(() => import('./SenderNameDialog'));

const THEME_LABELS: Record<ThemeChoice, { label: string; icon: IconName }> = {
  light: { label: 'Light', icon: 'sun' },
  dark: { label: 'Dark', icon: 'moon' },
  system: { label: 'System', icon: 'monitor' },
};

export function SettingsMenu() {
  const theme = useAtomValue(themeChoiceAtom);
  const view = useAtomValue(viewModeAtom);
  const actions = useMailActions();
  const [senderNamesOpen, setSenderNamesOpen] = useState(false);
  const navigate = useNavigate();
  const t = useT();
  return (
    <>
      <MenuButton
        label="Settings"
        menuClassName="settings-menu"
        entries={[
          {
            kind: 'group',
            id: 'theme',
            label: 'Theme',
            items: THEME_CHOICES.map((choice) => ({
              id: `theme-${choice}`,
              label: THEME_LABELS[choice].label,
              icon: THEME_LABELS[choice].icon,
              checked: theme === choice,
              onSelect: () => actions.setTheme(choice),
            })),
          },
          { kind: 'separator', id: 'separator' },
          {
            kind: 'group',
            id: 'view',
            label: 'View',
            items: VIEW_MODES.map((mode) => ({
              id: `view-${mode}`,
              label: VIEW_MODE_INFO[mode].label,
              description: VIEW_MODE_INFO[mode].description,
              checked: view === mode,
              onSelect: () => actions.setViewMode(mode),
            })),
          },
          { kind: 'separator', id: 'separator-account' },
          { kind: 'item', id: 'all-settings', label: t('settings.allSettings'), icon: 'settings', onSelect: () => void navigate({ to: '/settings' }) },
          { kind: 'item', id: 'sender-name', label: 'Sender name…', icon: 'compose', description: 'The name next to your address in mail you send', onSelect: () => setSenderNamesOpen(true) },
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
