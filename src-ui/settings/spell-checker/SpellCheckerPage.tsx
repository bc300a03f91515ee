/**
 * Spell checker: per account, whether the composer checks spelling as you type (the
 * browser's checker, through the editor's `spellcheck` attribute, and Tern's own: marks,
 * suggestions, src-ui/spell), the language it checks in unless a message picks another, and
 * the personal word list ("Add to dictionary" in the composer), where a word can be removed.
 * Gated by the plan's `spellChecker`: without it a change shows the paywall instead, and
 * the gateway would refuse it too (FeatureNotInPlan).
 */
import { useId, useState } from 'react';
import type { PublicAccount } from '../../../shared/account';
import { TernError } from '../../../shared/errors';
import type { PreferencePatch } from '../../../shared/preferences';
import { SPELL_LANGUAGE_CHOICES, type SpellLanguageChoice } from '../../../shared/spelling';
import type { AccountSettings } from '../../../shared/worker-api';
import { errorText, useT, type MessageId } from '../../kit/i18n';
import { Icon } from '../../kit/icons';
import { useMailActions } from '../../state/actions-context';
import { useFeature } from '../../state/use-feature';
import { useAccountsWithSettings } from '../settings-hooks';
import { AccountNotices } from '../AccountNotices';

const LANGUAGE_LABELS: Record<SpellLanguageChoice, MessageId> = { auto: 'spelling.languageAuto', en: 'spelling.english', de: 'spelling.german' };

function SpellCheckSwitch({ account, settings }: { account: PublicAccount; settings: AccountSettings | undefined }) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const { allowed, requestPaywall } = useFeature('spellChecker', account.accountId);
  const [error, setError] = useState<string | null>(null);
  // What the composer does (useSpellCheck): off while the plan lacks the feature, whatever was chosen before.
  const checked = allowed && (settings?.preferences.spellCheck ?? true);
  const [notice, setNotice] = useState<string | null>(null);
  const language = settings?.preferences.spellLanguage ?? 'auto';
  const words = settings?.preferences.spellWords ?? [];
  const update = async (patch: PreferencePatch, done?: string) => {
    setError(null);
    setNotice(null);
    if (!allowed) return requestPaywall();
    try {
      await actions.updatePreferences(account.accountId, patch);
      if (done) setNotice(done);
    } catch (cause) {
      const error = TernError.from(cause);
      if (error.name === 'FeatureNotInPlan') requestPaywall();
      else setError(errorText(t, error));
    }
  };
  return (
    <div className="settings-group">
      <label className="settings-switch" htmlFor={id}>
        <input id={id} type="checkbox" role="switch" checked={checked} aria-describedby={`${id}-hint`} onChange={(event) => void update({ spellCheck: event.target.checked })} />
        <span className="settings-switch-text">
          <span>{t('settings.spellCheck')}</span>
          <span className="settings-choice-hint">{account.emailAddress}</span>
        </span>
      </label>
      <p id={`${id}-hint`} className="field-hint">
        {allowed ? t('settings.spellCheckIntro') : t('settings.paywallNotIncluded', { feature: t('settings.featureSpellChecker') })}
      </p>
      <label className="field-label spell-language-label" htmlFor={`${id}-language`}>
        {t('spelling.defaultLanguage')}
      </label>
      <select id={`${id}-language`} className="input settings-select" value={language} onChange={(event) => void update({ spellLanguage: event.target.value as SpellLanguageChoice })}>
        {SPELL_LANGUAGE_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {t(LANGUAGE_LABELS[choice])}
          </option>
        ))}
      </select>
      <h3 className="field-label spell-words-title">{t('spelling.words')}</h3>
      <p className="field-hint">{t('spelling.wordsIntro')}</p>
      {words.length === 0 ? (
        <p className="field-hint">{t('spelling.noWords')}</p>
      ) : (
        <ul className="spell-words" aria-label={`${t('spelling.words')}: ${account.emailAddress}`}>
          {words.map((word) => (
            <li key={word} className="spell-word">
              <span lang={language === 'auto' ? undefined : language}>{word}</span>
              <button
                type="button"
                className="icon-button spell-word-remove"
                aria-label={t('spelling.removeWord', { word })}
                title={t('spelling.removeWord', { word })}
                onClick={() => void update({ spellWords: words.filter((other) => other !== word) }, t('spelling.wordRemoved', { word }))}
              >
                <Icon name="close" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {notice && (
        <p className="settings-notice" role="status">
          {notice}
        </p>
      )}
      <AccountNotices settings={settings} error={error} />
    </div>
  );
}

export default function SpellCheckerPage() {
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      {accounts.map(({ account, settings }) => (
        <SpellCheckSwitch key={account.accountId} account={account} settings={settings} />
      ))}
    </div>
  );
}
