/** Which mailbox the address shows, and the account that commands without a thread act for. */
import { useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { accountsAtom } from './atoms';

export type CurrentMailbox =
  | { readonly kind: 'unified'; readonly role: string }
  | { readonly kind: 'folder'; readonly accountId: string; readonly folderId: string }
  | null;

export function useCurrentMailbox(): CurrentMailbox {
  const params = useParams({ strict: false }) as { role?: string; accountId?: string; folderId?: string };
  if (params.role) return { kind: 'unified', role: params.role };
  if (params.accountId && params.folderId) return { kind: 'folder', accountId: params.accountId, folderId: params.folderId };
  return null;
}

/** The account of the folder shown, or the primary account in unified views. */
export function useActiveAccountId(): string | null {
  const mailbox = useCurrentMailbox();
  const accounts = useAtomValue(accountsAtom) ?? [];
  if (mailbox?.kind === 'folder' && accounts.some((account) => account.accountId === mailbox.accountId)) return mailbox.accountId;
  return accounts[0]?.accountId ?? null;
}
