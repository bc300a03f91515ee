/**
 * General: theme, view and language, which are the primary account's preferences and so
 * follow it to every device, and the thread list's width, which stays with this browser:
 * it is a fit to one screen (a width chosen on a wide monitor would squeeze a laptop's
 * reading pane), so it does not roam (settings/pane-width.ts, localStorage).
 */
import { useAtomValue } from 'jotai';
import { useId } from 'react';
import { LANGUAGE_CHOICES, THEME_CHOICES, VIEW_MODES, type LanguageChoice, type ThemeChoice, type ViewMode } from '../../../shared/preferences';
import { Icon, type IconName } from '../../kit/icons';
import { browserLocale, useT, type MessageId } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { listWidthAtom, themeChoiceAtom, viewModeAtom } from '../../state/atoms';
import { languageChoiceAtom } from '../../state/settings-atoms';
import { LIST_WIDTH_STEP, MIN_LIST_WIDTH } from '../../state/pane-width';
import { useAccountsWithSettings } from '../settings-hooks';

const THEMES: Record<ThemeChoice, { label: MessageId; icon: IconName }> = {
  light: { label: 'settings.themeLight', icon: 'sun' },
  dark: { label: 'settings.themeDark', icon: 'moon' },
  system: { label: 'settings.themeSystem', icon: 'monitor' },
};

const VIEWS: Record<ViewMode, { label: MessageId; hint: MessageId }> = {
  conversation: { label: 'settings.viewConversation', hint: 'settings.viewConversationHint' },
  split: { label: 'settings.viewSplit', hint: 'settings.viewSplitHint' },
  single: { label: 'settings.viewSingle', hint: 'settings.viewSingleHint' },
  list: { label: 'settings.viewList', hint: 'settings.viewListHint' },
};

/** Each language named in itself, so a person who cannot read the current one still finds theirs. */
const LANGUAGE_NAMES: Record<Exclude<LanguageChoice, 'auto'>, MessageId> = { en: 'settings.languageEn', de: 'settings.languageDe' };

/** The widest list the slider offers; the layout still keeps the reading pane's minimum. */
const MAX_SLIDER_WIDTH = 960;

export default function GeneralPage() {
  const t = useT();
  const actions = useMailActions();
  const theme = useAtomValue(themeChoiceAtom);
  const view = useAtomValue(viewModeAtom);
  const language = useAtomValue(languageChoiceAtom);
  const listWidth = useAtomValue(listWidthAtom);
  const primary = useAccountsWithSettings()[0];
  const ids = { language: useId(), width: useId(), widthHint: useId() };
  return (
    <div className="settings-sections">
      {primary && <p className="settings-intro">{t('settings.appWide', { email: primary.account.emailAddress })}</p>}
      {primary?.settings?.unsynced && (
        <p className="settings-notice" role="status">
          {t('settings.notSynced')}
        </p>
      )}
      <fieldset className="settings-group">
        <legend>{t('settings.theme')}</legend>
        <div className="settings-choices settings-choices-row">
          {THEME_CHOICES.map((choice) => (
            <label key={choice} className="settings-choice">
              <input type="radio" name="theme" value={choice} checked={theme === choice} onChange={() => actions.setTheme(choice)} />
              <Icon name={THEMES[choice].icon} size={18} />
              <span>{t(THEMES[choice].label)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="settings-group">
        <legend>{t('settings.view')}</legend>
        <div className="settings-choices">
          {VIEW_MODES.map((mode) => (
            <label key={mode} className="settings-choice settings-choice-wide">
              <input type="radio" name="view" value={mode} checked={view === mode} onChange={() => actions.setViewMode(mode)} />
              <span className="settings-choice-text">
                <span>{t(VIEWS[mode].label)}</span>
                <span className="settings-choice-hint">{t(VIEWS[mode].hint)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="settings-group">
        <label className="field-label" htmlFor={ids.language}>
          {t('settings.language')}
        </label>
        <select id={ids.language} className="input settings-select" value={language} onChange={(event) => actions.setLanguage(event.target.value as LanguageChoice)}>
          {LANGUAGE_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice === 'auto' ? t('settings.languageAuto', { language: t(LANGUAGE_NAMES[browserLocale()]) }) : t(LANGUAGE_NAMES[choice])}
            </option>
          ))}
        </select>
      </div>
      <div className="settings-group">
        <label className="field-label" htmlFor={ids.width}>
          {t('settings.listWidth')}
        </label>
        <div className="settings-range">
          <input
            id={ids.width}
            type="range"
            min={MIN_LIST_WIDTH}
            max={MAX_SLIDER_WIDTH}
            step={LIST_WIDTH_STEP}
            value={listWidth ?? MIN_LIST_WIDTH}
            aria-describedby={ids.widthHint}
            onChange={(event) => actions.setListWidth(Number(event.target.value))}
          />
          <output htmlFor={ids.width}>{listWidth === null ? t('settings.listWidthAutomatic') : t('settings.listWidthValue', { width: listWidth })}</output>
        </div>
        <p id={ids.widthHint} className="field-hint">
          {t('settings.listWidthHint')}
        </p>
      </div>
    </div>
  );
}
