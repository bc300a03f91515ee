/**
 * Who is sending analytics: OS and browser from the user agent, locale and time zone.
 * Read once from the worker's navigator (injected, so tests pass their own).
 */
import type { AnalyticsClientDescription } from '../../shared/analytics-events';
import { APP_VERSION } from '../../shared/app-info';

export interface ClientEnvironment {
  readonly userAgent: string;
  readonly locale: string;
  readonly timeZone: string;
}

export interface ParsedUserAgent {
  readonly os: string;
  /** "0" when unknown (spec §3: fallback OS version is 0). */
  readonly osVersion: string;
  readonly browser: string;
  readonly browserVersion: string;
}

const dotted = (version: string | undefined) => version?.replaceAll('_', '.') ?? '0';

function parseOs(ua: string): Pick<ParsedUserAgent, 'os' | 'osVersion'> {
  const rules: [string, RegExp][] = [
    ['Windows', /Windows NT ([\d.]+)/],
    ['Android', /Android ([\d.]+)/],
    ['iOS', /(?:iPhone|iPad|iPod).*? OS ([\d_]+)/],
    ['ChromeOS', /CrOS \S+ ([\d.]+)/],
    ['macOS', /Mac OS X ([\d_.]+)/],
    ['Linux', /Linux/],
  ];
  for (const [os, pattern] of rules) {
    const match = pattern.exec(ua);
    if (match) return { os, osVersion: dotted(match[1]) };
  }
  return { os: 'unknown', osVersion: '0' };
}

function parseBrowser(ua: string): Pick<ParsedUserAgent, 'browser' | 'browserVersion'> {
  // Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
  const rules: [string, RegExp][] = [
    ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
    ['Opera', /OPR\/([\d.]+)/],
    ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
    ['Chrome', /(?:Chrome|CriOS)\/([\d.]+)/],
    ['Safari', /Version\/([\d.]+).*Safari/],
  ];
  for (const [browser, pattern] of rules) {
    const match = pattern.exec(ua);
    if (match) return { browser, browserVersion: match[1] ?? '0' };
  }
  return { browser: 'unknown', browserVersion: '0' };
}

export function parseUserAgent(userAgent: string): ParsedUserAgent {
  return { ...parseOs(userAgent), ...parseBrowser(userAgent) };
}

/** The environment of the running worker. */
export function currentEnvironment(): ClientEnvironment {
  const options = Intl.DateTimeFormat().resolvedOptions();
  return {
    userAgent: globalThis.navigator?.userAgent ?? '',
    locale: globalThis.navigator?.language ?? options.locale,
    timeZone: options.timeZone,
  };
}

/** The client description header of every analytics batch (spec §7). */
export function clientDescription(environment: ClientEnvironment): AnalyticsClientDescription {
  const ua = parseUserAgent(environment.userAgent);
  return {
    os: ua.os,
    os_version: ua.osVersion,
    app_version: APP_VERSION,
    locale: environment.locale,
    browser: ua.browser,
    browser_version: ua.browserVersion,
    client: 'web_mail',
  };
}
