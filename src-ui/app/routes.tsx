/**
 * The route tree (TanStack Router). Screens load lazily, so the entry bundle holds only
 * React and the boot screen (DESIGN §8: entry ≤ 90 KB gzipped):
 *
 *   /                               → /mail/unified/inbox
 *   /login?add=1                    login, or add another account
 *   /mail/unified/$role?q&in&thread the same special folder of every account
 *   /mail/$accountId/$folderId?…    one folder of one account
 *   /mail/scheduled                 the Scheduled list: messages the gateway sends later (scheduled/)
 *   /mail/$accountId/label/$label?… one account's threads with a label (its keyword)
 *   /settings                       the Settings screen: its pages (a list alone on a phone)
 *   /settings/$page                 one page (settings/pages.ts), each its own lazy chunk
 *   /contacts?account&contact       the address book (contacts/ContactsScreen.tsx)
 *   /compose?uri=mailto:…           a mailto: link (Tern as the default mail app): the composer, filled, over the inbox
 *
 * A screen whose chunk is gone after a deploy says "has been updated, reload" (chunk-errors.ts).
 */
import {
  createBrowserHistory,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  notFound,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import { importChunk } from './chunk-errors';
import { RootLayout } from './RootLayout';
import { NotFound } from './NotFound';
import { RouteError } from './RouteError';
import { builtSettingsPage, loadSettingsPage } from '../settings/pages';
import { composeSearchSchema, contactsSearchSchema, loginSearchSchema, mailSearchSchema, parseSearchString, stringifySearchObject } from '../state/search-params';

const rootRoute = createRootRoute({ component: RootLayout, notFoundComponent: NotFound });

const toInbox = () => {
  throw redirect({ to: '/mail/unified/$role', params: { role: 'inbox' }, replace: true });
};

const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', beforeLoad: toInbox });

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: loginSearchSchema,
  component: lazyRouteComponent(importChunk(() => import('../login/LoginScreen')), 'LoginScreen'),
});

const mailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'mail',
  validateSearch: mailSearchSchema,
  component: lazyRouteComponent(importChunk(() => import('./MailLayout')), 'MailLayout'),
});

const mailIndexRoute = createRoute({ getParentRoute: () => mailRoute, path: '/', beforeLoad: toInbox });

const unifiedRoute = createRoute({
  getParentRoute: () => mailRoute,
  path: 'unified/$role',
  component: lazyRouteComponent(importChunk(() => import('./MailboxRoutes')), 'UnifiedMailbox'),
});

const folderRoute = createRoute({
  getParentRoute: () => mailRoute,
  path: '$accountId/$folderId',
  component: lazyRouteComponent(importChunk(() => import('./MailboxRoutes')), 'FolderMailbox'),
});

const scheduledRoute = createRoute({
  getParentRoute: () => mailRoute,
  path: 'scheduled',
  component: lazyRouteComponent(importChunk(() => import('./ScheduledRoute')), 'ScheduledRoute'),
});

const labelRoute = createRoute({
  getParentRoute: () => mailRoute,
  path: '$accountId/label/$label',
  component: lazyRouteComponent(importChunk(() => import('./MailboxRoutes')), 'LabelMailbox'),
});

const settingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'settings',
  component: lazyRouteComponent(importChunk(() => import('../settings/SettingsLayout')), 'SettingsLayout'),
});

const settingsIndexRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/',
  component: lazyRouteComponent(importChunk(() => import('../settings/SettingsLayout')), 'SettingsHome'),
});

// Each page is its own chunk (settings/pages.ts), loaded before the page shows; a page not
// built yet, or a mistyped one, is not found.
const settingsPageRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '$page',
  loader: async ({ params }) => {
    const page = builtSettingsPage(params.page);
    if (!page) throw notFound();
    await importChunk(() => loadSettingsPage(page))();
  },
  component: lazyRouteComponent(importChunk(() => import('../settings/SettingsLayout')), 'SettingsPageView'),
});

const composeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'compose',
  validateSearch: composeSearchSchema,
  component: lazyRouteComponent(importChunk(() => import('./ComposeLink')), 'ComposeLink'),
});

const contactsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'contacts',
  validateSearch: contactsSearchSchema,
  component: lazyRouteComponent(importChunk(() => import('../contacts/ContactsScreen')), 'ContactsScreen'),
});

export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  composeRoute,
  mailRoute.addChildren([mailIndexRoute, unifiedRoute, scheduledRoute, folderRoute, labelRoute]),
  settingsRoute.addChildren([settingsIndexRoute, settingsPageRoute]),
  contactsRoute,
]);

export function createAppRouter(history: RouterHistory = createBrowserHistory()) {
  return createRouter({
    routeTree,
    history,
    parseSearch: parseSearchString,
    stringifySearch: stringifySearchObject,
    defaultPendingMs: 300,
    // A screen that fails (its code gone after a deploy, or a bug) says so in place, inside its layout.
    defaultErrorComponent: RouteError,
    scrollRestoration: false,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
