/**
 * /compose: where a `mailto:` link lands when Tern is the default mail app (Settings →
 * Apps, `registerProtocolHandler`) or the installed app's handler (the manifest's
 * `protocol_handlers`), and a link anyone can write (`/compose?to=…&subject=…`). It opens
 * the composer filled from the link (composer/mailto-uri.ts) over the inbox — also when
 * Tern was closed: this address is a whole page load like any other.
 */
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { mailtoFromParams } from '../composer/mailto-uri';
import { useMailActions } from '../state/actions-context';
import { accountsAtom } from '../state/atoms';
import { useActiveAccountId } from '../state/current-mailbox';
import { useT } from '../kit/i18n';
import { TernError } from '../../shared/errors';
import { errorPhrase } from '../../shared/strings';

const composeRoute = getRouteApi('/compose');

export function ComposeLink() {
  const t = useT();
  const search = composeRoute.useSearch();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const active = useActiveAccountId();
  const actions = useMailActions();
  const navigate = useNavigate();
  const opened = useRef(false);
  const accountId = active ?? accounts[0]?.accountId ?? null;
  useEffect(() => {
    if (!accountId || opened.current) return;
    opened.current = true;
    const uri = mailtoFromParams(search);
    import('../composer')
      .then(({ composeFromMailto }) => actions.openComposer(composeFromMailto(uri, accountId)))
      .catch((error: unknown) => actions.toast({ tone: 'error', title: t('app.couldNotOpenThe'), message: errorPhrase(TernError.from(error)) }))
      // The inbox behind it, in place of /compose: Back leaves Tern as it would leave the link's page.
      .finally(() => void navigate({ to: '/mail/unified/$role', params: { role: 'inbox' }, search: {}, replace: true }));
  }, [accountId, search, actions, navigate, t]);
  return (
    <p className="empty-page" role="status">
      {t('app.openingTheComposer')}
    </p>
  );
}
