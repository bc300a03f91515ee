/**
 * The frame of every route: waits for the account list, sends a logged-out tab to the
 * login screen, applies the theme, and shows toasts.
 */
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { brand } from '../brand';
import { Shell } from '../shell/Shell';
import { accountsAtom, partnerThemeAtom, resolvedThemeAtom } from '../state/atoms';
import { applyTheme } from '../theme/theme';
import { RedirectToLogin } from './Redirect';
import { Toasts } from './Toasts';

function useDocumentTheme() {
  const theme = useAtomValue(resolvedThemeAtom);
  const partner = useAtomValue(partnerThemeAtom);
  useEffect(() => applyTheme(document.documentElement, theme, partner), [theme, partner]);
}

export function RootLayout() {
  useDocumentTheme();
  const accounts = useAtomValue(accountsAtom);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  if (accounts === null) return <Shell brand={brand} engine={{ kind: 'connecting' }} />;
  if (accounts.length === 0 && pathname !== '/login') return <RedirectToLogin />;
  return (
    <>
      <Outlet />
      <Toasts />
    </>
  );
}
