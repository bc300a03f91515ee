/** Which mailbox the address shows, and the account that commands without a thread act for. */
import { useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { accountsAtom } from './atoms';

export type CurrentMailbox =
  | { readonly kind: 'unified'; readonly role: string }
  | { readonly kind: 'folder'; readonly accountId: string; readonly folderId: string }
  | { readonly kind: 'label'; readonly accountId: string; readonly label: string }
  | null;

export function useCurrentMailbox(): CurrentMailbox {
  const params = useParams({ strict: false }) as { role?: string; accountId?: string; folderId?: string; label?: string };
  if (params.role) return { kind: 'unified', role: params.role };
  if (params.accountId && params.label) return { kind: 'label', accountId: params.accountId, label: params.label };
  if (params.accountId && params.folderId) return { kind: 'folder', accountId: params.accountId, folderId: params.folderId };
  return null;
}

/** The account of the folder shown, or the primary account in unified views. */
export function useActiveAccountId(): string | null {
  const mailbox = useCurrentMailbox();
  const accounts = useAtomValue(accountsAtom) ?? [];
  if ((mailbox?.kind === 'folder' || mailbox?.kind === 'label') && accounts.some((account) => account.accountId === mailbox.accountId)) return mailbox.accountId;
  return accounts[0]?.accountId ?? null;
}
