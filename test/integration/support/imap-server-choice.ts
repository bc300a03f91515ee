// Which IMAP server an integration run talks to. The vitest config runs the mail-path
// files twice: project `integration` on Dovecot, project `integration-cyrus` with
// TERN_TEST_IMAP_SERVER=cyrus (see test/vitest.config.ts), so the test bodies are shared.
import { IMAP_SERVER_KINDS, type ImapServerKind } from '../../harness/mail-servers';

export function imapServerUnderTest(): ImapServerKind {
  const chosen = process.env.TERN_TEST_IMAP_SERVER ?? 'dovecot';
  const kind = IMAP_SERVER_KINDS.find((candidate) => candidate === chosen);
  if (!kind) throw new Error(`TERN_TEST_IMAP_SERVER=${chosen}: expected one of ${IMAP_SERVER_KINDS.join(', ')}`);
  return kind;
}

/** True on a run against Cyrus: for the few steps that need Dovecot's Maildir or doveadm. */
export const onCyrus = (): boolean => imapServerUnderTest() === 'cyrus';
