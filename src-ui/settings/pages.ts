/**
 * Every preference group of the spec as a Settings page, in the order the Settings screen
 * lists them, and whether it is built. Only built pages are shown and routed; a feature issue
 * builds its page by giving it a `load` (one lazy chunk per page, app/routes.tsx) — nothing
 * else. Small on purpose: the router imports it, the pages themselves load when opened.
 */
import type { ComponentType } from 'react';
import type { Feature } from '../../shared/plans';
import type { MessageId } from '../kit/i18n';

export interface SettingsPage {
  /** The address: /settings/<id>. */
  readonly id: string;
  readonly title: MessageId;
  /** The plan's feature the page's controls need (the page shows the paywall without it). */
  readonly feature?: Feature;
  /** The page's chunk (its default export); absent while the page is not built. */
  readonly load?: () => Promise<{ default: ComponentType }>;
}

export const SETTINGS_PAGES: readonly SettingsPage[] = [
  { id: 'general', title: 'settings.pageGeneral', load: () => import('./general/GeneralPage') },
  { id: 'identity', title: 'settings.pageIdentity', load: () => import('./identity/IdentityPage') },
  { id: 'signatures', title: 'settings.pageSignatures', load: () => import('./signatures/SignaturesPage') },
  { id: 'templates', title: 'settings.pageTemplates', feature: 'templates', load: () => import('./templates/TemplatesPage') },
  { id: 'email-alias', title: 'settings.pageEmailAlias', feature: 'emailAlias', load: () => import('./email-alias/EmailAliasPage') },
  { id: 'priority', title: 'settings.pagePriority', load: () => import('./priority/PriorityPage') },
  { id: 'forwarding', title: 'settings.pageForwarding', load: () => import('./rules/ForwardingPage') },
  { id: 'notifications', title: 'settings.pageNotifications', load: () => import('./notifications/NotificationsPage') },
  { id: 'allow-block', title: 'settings.pageAllowBlock', feature: 'allowBlockLists', load: () => import('./rules/AllowBlockPage') },
  { id: 'manage-senders', title: 'settings.pageManageSenders', load: () => import('./senders/ManageSendersPage') },
  { id: 'auto-reply', title: 'settings.pageAutoReply', load: () => import('./rules/AutoReplyPage') },
  { id: 'business-auto-reply', title: 'settings.pageBusinessAutoReply', feature: 'businessAutoReply', load: () => import('./rules/BusinessHoursPage') },
  { id: 'auto-clean', title: 'settings.pageAutoClean', feature: 'autoClean', load: () => import('./auto-clean/AutoCleanPage') },
  { id: 'spell-checker', title: 'settings.pageSpellChecker', feature: 'spellChecker', load: () => import('./spell-checker/SpellCheckerPage') },
  { id: 'rules', title: 'settings.pageRules', load: () => import('./rules/FiltersPage') },
  { id: 'email-actions', title: 'settings.pageEmailActions', load: () => import('./email-actions/EmailActionsPage') },
  { id: 'tracking', title: 'settings.pageTracking' },
  { id: 'labels', title: 'settings.pageLabels', feature: 'labels', load: () => import('./labels/LabelsPage') },
  { id: 'contacts', title: 'settings.pageContacts', load: () => import('./contacts/ContactsPage') },
  // Account security is never behind a plan: a paywall in front of two-step verification would protect only those who pay.
  { id: 'security', title: 'settings.pageSecurity', load: () => import('./security/SecurityPage') },
  { id: 'sessions', title: 'settings.pageSessions', load: () => import('./security/SessionsPage') },
  // Installing Tern, and Tern as the default mail app (the account menu's "Get the app" opens it).
  { id: 'apps', title: 'device.pageApps', load: () => import('./apps/AppsPage') },
  { id: 'plan', title: 'settings.pagePlan', load: () => import('./plan/PlanPage') },
];

export type BuiltSettingsPage = SettingsPage & Required<Pick<SettingsPage, 'load'>>;

/** The pages shown and routed. */
export const BUILT_SETTINGS_PAGES: readonly BuiltSettingsPage[] = SETTINGS_PAGES.filter((page): page is BuiltSettingsPage => page.load !== undefined);

export function builtSettingsPage(id: string): BuiltSettingsPage | undefined {
  return BUILT_SETTINGS_PAGES.find((page) => page.id === id);
}

const loadedPages = new Map<string, ComponentType>();

/** Loads a page's chunk (the route's loader) and keeps its component, so showing it never suspends. */
export async function loadSettingsPage(page: BuiltSettingsPage): Promise<void> {
  if (!loadedPages.has(page.id)) loadedPages.set(page.id, (await page.load()).default);
}

/** The page's component once loaded. */
export function loadedSettingsPage(id: string): ComponentType | undefined {
  return loadedPages.get(id);
}

/** The catalogue name of each feature (the paywall and the Plan page say it). */
export const FEATURE_NAMES: Readonly<Record<Feature, MessageId>> = {
  emailAlias: 'settings.featureEmailAlias',
  autoClean: 'settings.featureAutoClean',
  spellChecker: 'settings.featureSpellChecker',
  allowBlockLists: 'settings.featureAllowBlockLists',
  labels: 'settings.featureLabels',
  templates: 'settings.featureTemplates',
  contactGroups: 'settings.featureContactGroups',
  campaigns: 'settings.featureCampaigns',
  insertHtml: 'settings.featureInsertHtml',
  bookingLink: 'settings.featureBookingLink',
  businessAutoReply: 'settings.featureBusinessAutoReply',
};
