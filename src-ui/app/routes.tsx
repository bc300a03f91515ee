/**
 * The route tree (TanStack Router). Screens load lazily, so the entry bundle holds only
 * React and the boot screen (DESIGN §8: entry ≤ 90 KB gzipped):
 *
 *   /                               → /mail/unified/inbox
 *   /login?add=1                    login, or add another account
 *   /mail/unified/$role?q&in&thread the same special folder of every account
 *   /mail/$accountId/$folderId?…    one folder of one account
 */
import {
  createBrowserHistory,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import { RootLayout } from './RootLayout';
import { NotFound } from './NotFound';
import { loginSearchSchema, mailSearchSchema, parseSearchString, stringifySearchObject } from './search-params';

const rootRoute = createRootRoute({ component: RootLayout, notFoundComponent: NotFound });

const toInbox = () => {
  throw redirect({ to: '/mail/unified/$role', params: { role: 'inbox' }, replace: true });
};

const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', beforeLoad: toInbox });

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: loginSearchSchema,
  component: lazyRouteComponent(() => import('../login/LoginScreen'), 'LoginScreen'),
});

const mailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'mail',
  validateSearch: mailSearchSchema,
  component: lazyRouteComponent(() => import('./MailLayout'), 'MailLayout'),
});

const mailIndexRoute = createRoute({ getParentRoute: () => mailRoute, path: '/', beforeLoad: toInbox });

const unifiedRoute = createRoute({
  getParentRoute: () => mailRoute,
  path: 'unified/$role',
  component: lazyRouteComponent(() => import('./MailboxRoutes'), 'UnifiedMailbox'),
});

const folderRoute = createRoute({
  getParentRoute: () => mailRoute,
  path: '$accountId/$folderId',
  component: lazyRouteComponent(() => import('./MailboxRoutes'), 'FolderMailbox'),
});

export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  mailRoute.addChildren([mailIndexRoute, unifiedRoute, folderRoute]),
]);

export function createAppRouter(history: RouterHistory = createBrowserHistory()) {
  return createRouter({
    routeTree,
    history,
    parseSearch: parseSearchString,
    stringifySearch: stringifySearchObject,
    defaultPendingMs: 300,
    scrollRestoration: false,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
