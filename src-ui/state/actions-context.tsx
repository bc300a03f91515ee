/** Hands the command functions to components (they never see the engine). */
import { createContext, useContext, type ReactNode } from 'react';
import type { MailActions } from './mail-actions';

const ActionsContext = createContext<MailActions | null>(null);

export function ActionsProvider({ actions, children }: { actions: MailActions; children: ReactNode }) {
  return <ActionsContext.Provider value={actions}>{children}</ActionsContext.Provider>;
}

export function useMailActions(): MailActions {
  const actions = useContext(ActionsContext);
  if (!actions) throw new Error('useMailActions needs an ActionsProvider above it.');
  return actions;
}

/** The actions where a provider is above, else null (the composer's spelling runs in tests without one). */
export function useOptionalMailActions(): MailActions | null {
  return useContext(ActionsContext);
}
