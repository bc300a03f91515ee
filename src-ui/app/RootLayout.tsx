/**
 * The frame of every route: waits for the account list, sends a logged-out tab to the
 * login screen, applies the theme, and shows toasts.
 */
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { brand } from '../brand';
import { loginNeeded, loginSearchFrom } from '../engine/first-screen';
import { Shell } from '../shell/Shell';
import { accountsAtom, partnerThemeAtom, resolvedThemeAtom } from '../state/atoms';
import { applyTheme } from '../theme/theme';
import { RedirectToLogin } from '../kit/Redirect';
import { Toasts } from './Toasts';
import { paywallAtom } from '../state/settings-atoms';
import { UpdateBanner } from '../offline';

// Loaded when a gated feature is first asked for without it in the plan.
const PaywallDialog = lazy(() => import('../settings/PaywallDialog'));

function Paywall() {
  const paywall = useAtomValue(paywallAtom);
  return paywall ? (
    <Suspense fallback={null}>
      <PaywallDialog />
    </Suspense>
  ) : null;
}

function useDocumentTheme() {
  const theme = useAtomValue(resolvedThemeAtom);
  const partner = useAtomValue(partnerThemeAtom);
  useEffect(() => applyTheme(document.documentElement, theme, partner), [theme, partner]);
}

export function RootLayout() {
  useDocumentTheme();
  const accounts = useAtomValue(accountsAtom);
  const location = useRouterState({ select: (state) => state.location });
  // The screen on show, not the address: on the way to /login the address changes at once
  // while the mailbox stays rendered until the login screen's chunk is there.
  const loginShown = useRouterState({ select: (state) => state.matches.some((match) => match.routeId === '/login') });
  if (accounts === null) return <Shell brand={brand} engine={{ kind: 'connecting' }} />;
  // Logged out (the last account, here or in another tab): nothing until the login screen,
  // never a mailbox without accounts.
  if (accounts.length === 0 && !loginShown) return loginNeeded(0, location.pathname) ? <RedirectToLogin search={loginSearchFrom(location)} /> : null;
  return (
    <>
      <Outlet />
      <Toasts />
      <Paywall />
      <UpdateBanner />
    </>
  );
}
