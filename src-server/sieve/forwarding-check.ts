/**
 * Forwarding in, checked (issue 16 point 7): mail of another address is forwarded here by that
 * address's provider, which Tern cannot see. So it tries it: a test message goes out from this
 * account (its own SMTP server) TO the other address, and the check looks for it in this
 * account's Inbox. It arrives only if the other address forwards here. The message carries a
 * token header; once seen it is removed (UID EXPUNGE of that one UID: it is Tern's own probe,
 * not the person's mail), so the Inbox stays as it was. Not seen within the wait: the answer
 * says so, and the page says what to look at.
 */
import { randomBytes } from 'node:crypto';
import type { ImapFlow } from 'imapflow';
import { TernError } from '../../shared/errors';
import type { AccountRecord } from '../accounts/account-store';
import type { MirrorManager } from '../mirror/mirror-manager';
import type { SmtpConnector } from '../smtp/smtp-connector';

/** How long the check waits for the message by default: forwarding providers usually pass mail on in seconds. */
export const FORWARDING_CHECK_WAIT_MS = 45_000;
/** Between looks in the Inbox (one UID SEARCH each, on the account's own queue). */
const LOOK_EVERY_MS = 1_000;
const TOKEN_HEADER = 'X-Tern-Forwarding-Check';

export interface ForwardingCheckResult {
  readonly arrived: boolean;
  /** How long it took (arrived), or how long the check waited (not arrived). */
  readonly seconds: number;
}

export interface ForwardingCheckDeps {
  readonly smtp: SmtpConnector;
  readonly mirrors: Pick<MirrorManager, 'withMailbox'>;
  readonly waitMs?: number;
  readonly now?: () => number;
}

export async function checkForwarding(
  deps: ForwardingCheckDeps,
  params: { readonly account: Pick<AccountRecord, 'id' | 'email' | 'smtp'>; readonly password: string; readonly address: string; readonly inbox: string },
): Promise<ForwardingCheckResult> {
  const now = deps.now ?? Date.now;
  const { account, address, inbox } = params;
  const token = randomBytes(12).toString('hex');
  const started = now();
  try {
    await deps.smtp.send({ account, password: params.password, envelope: { from: account.email, to: [address] }, raw: probeMessage(account.email, address, token, new Date(started)) });
  } catch (error) {
    throw new TernError('SendFailed', { detail: { server: error instanceof Error ? error.message : String(error) } });
  }
  const deadline = started + (deps.waitMs ?? FORWARDING_CHECK_WAIT_MS);
  for (;;) {
    const found = await deps.mirrors.withMailbox(account.id, inbox, (client) => removeProbe(client, token));
    if (found) return { arrived: true, seconds: Math.max(1, Math.round((now() - started) / 1000)) };
    if (now() >= deadline) return { arrived: false, seconds: Math.round((now() - started) / 1000) };
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}

/** Finds the probe by its token; removes it (only its UID) and says whether it was there. */
async function removeProbe(client: ImapFlow, token: string): Promise<boolean> {
  const found = await client.search({ header: { [TOKEN_HEADER.toLowerCase()]: token } }, { uid: true });
  const uids = Array.isArray(found) ? found : [];
  if (uids.length === 0) return false;
  await client.messageDelete(uids.join(','), { uid: true });
  return true;
}

function probeMessage(from: string, to: string, token: string, date: Date): Buffer {
  const domain = from.slice(from.lastIndexOf('@') + 1);
  const lines = [
    `From: ${from}`,
    `To: ${to}`,
    'Subject: Tern Mail forwarding check',
    `Date: ${date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <forwarding-check.${token}@${domain}>`,
    `${TOKEN_HEADER}: ${token}`,
    // Not a message to answer: auto replies and vacation responders leave it alone (RFC 3834).
    'Auto-Submitted: auto-generated',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    `This message checks that mail sent to ${to} is forwarded to ${from}.`,
    'Tern Mail removes it as soon as it arrives; if you see it, forwarding works.',
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}
