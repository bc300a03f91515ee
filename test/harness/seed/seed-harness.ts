// Seeds a harness user's mailbox the way its IMAP server allows: straight into
// Dovecot's Maildir (fast, byte-identical), or over IMAP for Cyrus (seedOverImap).
import type { MailServers, MailUser } from '../mail-servers';
import { seedOverImap } from './imap-upload';
import { seedMailbox, type SeedOptions, type SeedSummary } from './seed-mailbox';

export async function seedHarnessMailbox(servers: MailServers, user: MailUser, options: Omit<SeedOptions, 'maildir'>): Promise<SeedSummary> {
  if (servers.imapServer === 'cyrus') return seedOverImap({ host: servers.host, port: servers.ports.imap, ...user }, options);
  const summary = seedMailbox({ ...options, maildir: servers.maildirOf(user.email) });
  await servers.fixOwnership(user.email);
  return summary;
}
