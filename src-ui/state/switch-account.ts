/** Going to an account's inbox (the account menu's switch, the login screen's "Switch to" for an account already signed in). */
import { useNavigate } from '@tanstack/react-router';
import { useStore } from 'jotai';
import { useCallback } from 'react';
import { foldersAtom } from './atoms';

export function useSwitchAccount(): (accountId: string) => void {
  const navigate = useNavigate();
  const store = useStore();
  return useCallback(
    (accountId: string) => {
      const inbox = store.get(foldersAtom)[accountId]?.find((folder) => folder.specialUse === 'inbox');
      if (inbox) void navigate({ to: '/mail/$accountId/$folderId', params: { accountId, folderId: inbox.id }, search: {} });
      else void navigate({ to: '/mail/unified/$role', params: { role: 'inbox' }, search: {} });
    },
    [navigate, store],
  );
}
