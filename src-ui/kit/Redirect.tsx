/**
 * Redirects that navigate once. The router's <Navigate> navigates again whenever its
 * props object changes, i.e. on every render of its parent; while a lazy route loads,
 * the parent re-renders on each router update and the two feed each other until React
 * gives up ("Maximum update depth exceeded"). These navigate once per mount.
 */
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';

function useOnce(run: () => void) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    run();
  });
}

/** To the unified inbox (the app's home). */
export function RedirectToInbox() {
  const navigate = useNavigate();
  useOnce(() => void navigate({ to: '/mail/unified/$role', params: { role: 'inbox' }, search: {}, replace: true }));
  return null;
}

/** To the login screen (nobody is logged in), with the query it is given (engine/first-screen.ts loginSearchFrom). */
export function RedirectToLogin({ search = {} }: { search?: { compose?: string } }) {
  const navigate = useNavigate();
  useOnce(() => void navigate({ to: '/login', search, replace: true }));
  return null;
}

/** To /compose with a mailto: link's query kept through the login (always that path: the query cannot lead elsewhere). */
export function RedirectToCompose({ query }: { query: string }) {
  const navigate = useNavigate();
  useOnce(() => void navigate({ href: `/compose?${query}`, replace: true }));
  return null;
}
