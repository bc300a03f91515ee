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

/** To the login screen (nobody is logged in). */
export function RedirectToLogin() {
  const navigate = useNavigate();
  useOnce(() => void navigate({ to: '/login', search: {}, replace: true }));
  return null;
}
