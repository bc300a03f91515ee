/**
 * Email alias (a paid feature: emailAlias): per account, the other addresses it sends from,
 * each an identity with its From name, Reply-To, blind copy and default (IdentityForm).
 * Whether the mail server lets the account send as one is the server's to say when a message
 * goes out: a refusal comes back as "not sent" with its reply.
 */
import { useState } from 'react';
import { Icon } from '../../kit/icons';
import { useT } from '../../kit/i18n';
import { useFeature } from '../../state/use-feature';
import { aliasesOf } from '../identity/account-identities';
import { IdentityForm } from '../identity/IdentityForm';
import { useAccountsWithSettings, type AccountWithSettings } from '../settings-hooks';

/** A new alias's id: the device names it, so a create sent twice is one alias. */
const newIdentityId = () => `alias-${crypto.randomUUID()}`;

function AccountAliases({ entry }: { entry: AccountWithSettings }) {
  const t = useT();
  const { account } = entry;
  const { allowed, requestPaywall } = useFeature('emailAlias', account.accountId);
  const [adding, setAdding] = useState<string | null>(null);
  const aliases = aliasesOf(entry);
  return (
    <section className="settings-sections" aria-label={t('identities.account', { email: account.emailAddress })}>
      <h3 className="identity-account">{t('identities.account', { email: account.emailAddress })}</h3>
      <div className="identity-list">
        {aliases.length === 0 && adding === null && <p className="identity-empty">{t('identities.noAliases')}</p>}
        {aliases.map((alias) => (
          <IdentityForm key={`${alias.id}-${alias.updatedAt}-${alias.isDefault}`} accountId={account.accountId} identityId={alias.id} identity={alias} />
        ))}
        {adding !== null && <IdentityForm accountId={account.accountId} identityId={adding} identity={null} onDone={() => setAdding(null)} onCancel={() => setAdding(null)} />}
      </div>
      {adding === null && (
        <button type="button" className="button button-secondary identity-add" onClick={() => (allowed ? setAdding(newIdentityId()) : requestPaywall())}>
          <Icon name="plus" size={16} />
          {t('identities.addAlias')}
        </button>
      )}
    </section>
  );
}

export default function EmailAliasPage() {
  const t = useT();
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      <p className="settings-intro">{t('identities.aliasIntro')}</p>
      {accounts.map((entry) => (
        <AccountAliases key={entry.account.accountId} entry={entry} />
      ))}
    </div>
  );
}
