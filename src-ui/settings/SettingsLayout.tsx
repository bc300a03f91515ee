/**
 * The Settings screen (issue 21 point 1): the list of built pages (settings/pages.ts) beside
 * the open page; on a phone the list is one screen and each page another, with a way back.
 * Keyboard: the list is one Tab stop (arrow keys, Home and End move inside it); Escape, or
 * "Back to mail", returns to the mailbox.
 */
import { Link, Outlet, useNavigate, useParams } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useMemo, useRef, type ComponentType, type KeyboardEvent, type LazyExoticComponent } from 'react';
import { Icon } from '../kit/icons';
import { useT } from '../kit/i18n';
import { BUILT_SETTINGS_PAGES, builtSettingsPage, loadedSettingsPage } from './pages';
import { SettingsNav } from './SettingsNav';

export function SettingsLayout() {
  const t = useT();
  const navigate = useNavigate();
  const { page } = useParams({ strict: false });
  const backToMail = () => void navigate({ to: '/mail/unified/$role', params: { role: 'inbox' } });
  const onKeyDown = (event: KeyboardEvent) => {
    // A dialog, a menu or a field that used Escape itself has said so (defaultPrevented).
    if (event.key !== 'Escape' || event.defaultPrevented || (event.target as Element).closest('dialog, [role="dialog"]')) return;
    event.preventDefault();
    backToMail();
  };
  return (
    <div className={`settings-screen${page ? ' settings-with-page' : ''}`} onKeyDown={onKeyDown}>
      <header className="settings-header">
        <button type="button" className="button button-secondary settings-back" onClick={backToMail}>
          <Icon name="arrowLeft" size={18} />
          <span>{t('settings.backToMail')}</span>
        </button>
        <h1 className="settings-title">{t('settings.title')}</h1>
      </header>
      <div className="settings-body">
        <SettingsNav current={page} />
        <main className="settings-main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/** /settings: on a wide screen, a word beside the list; on a phone, the list is all there is. */
export function SettingsHome() {
  const t = useT();
  return <p className="settings-home">{t('settings.chooseAPage')}</p>;
}

const lazyPages = new Map<string, LazyExoticComponent<ComponentType>>();
function pageComponent(id: string, load: () => Promise<{ default: ComponentType }>) {
  let component = lazyPages.get(id);
  if (!component) lazyPages.set(id, (component = lazy(load)));
  return component;
}

/** /settings/$page: the page's heading and its chunk (the route's loader fetched it already). */
export function SettingsPageView() {
  const t = useT();
  const { page: id } = useParams({ from: '/settings/$page' });
  const page = builtSettingsPage(id) ?? BUILT_SETTINGS_PAGES[0]!;
  // Loaded by the route's loader already (no flash of an empty page); lazily only if not.
  const Page = useMemo(() => loadedSettingsPage(page.id) ?? pageComponent(page.id, page.load), [page]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // On a phone the list that had the focus is gone: the page's heading takes it.
    const active = document.activeElement;
    if (!active || active === document.body || !(active as HTMLElement).offsetParent) heading.current?.focus();
  }, [page.id]);
  return (
    <section className="settings-page" aria-labelledby={`settings-page-${page.id}`}>
      <Link to="/settings" className="settings-page-back">
        <Icon name="arrowLeft" size={16} />
        <span>{t('settings.backToList')}</span>
      </Link>
      <h2 id={`settings-page-${page.id}`} ref={heading} tabIndex={-1} className="settings-page-title">
        {t(page.title)}
      </h2>
      <Suspense fallback={null}>
        <Page />
      </Suspense>
    </section>
  );
}
