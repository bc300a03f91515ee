/** Every German area, typed against English: a missing or extra area or key is a type error. */
import type { en } from '../en';
import { app } from './app';
import { common } from './common';
import { errors } from './errors';
import { login } from './login';
import { folders } from './folders';
import { sidebar } from './sidebar';
import { toolbar } from './toolbar';
import { keyboard } from './keyboard';
import { attachments } from './attachments';
import { conversation } from './conversation';
import { mailHtml } from './mailHtml';
import { threadList } from './threadList';
import { composer } from './composer';
import { settingsMenu } from './settingsMenu';
import { shell } from './shell';
import { settings } from './settings';
import { rules } from './rules';
import { contacts } from './contacts';
import { device } from './device';
import { scheduled } from './scheduled';
import { identities } from './identities';
import { labels } from './labels';
import { senders } from './senders';
import { priority } from './priority';
import { timers } from './timers';
import { security } from './security';
import { autoClean } from './autoClean';
import { writing } from './writing';
import { spelling } from './spelling';

export const de: { readonly [Area in keyof typeof en]: Readonly<Record<keyof (typeof en)[Area], string>> } = {
  app,
  common,
  errors,
  login,
  folders,
  sidebar,
  toolbar,
  keyboard,
  attachments,
  conversation,
  mailHtml,
  threadList,
  composer,
  settingsMenu,
  shell,
  settings,
  rules,
  contacts,
  device,
  scheduled,
  identities,
  labels,
  senders,
  priority,
  timers,
  security,
  autoClean,
  writing,
  spelling,
};
