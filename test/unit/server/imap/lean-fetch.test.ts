import type { MailboxObject } from 'imapflow';
import parseResponse from 'imapflow/lib/handler/imap-parser.js';
import { formatMessageResponse } from 'imapflow/lib/tools.js';
import { describe, expect, test } from 'vitest';
import { fetchedMessage } from '../../../../src-server/imap/lean-fetch';

/** A FETCH response as it comes off the wire: the line with literal markers, and the literals apart (as ImapStream splits them). */
function wire(parts: (string | { literal: string })[]): { payload: Buffer; literals: Buffer[] } {
  let line = '';
  const literals: Buffer[] = [];
  for (const part of parts) {
    if (typeof part === 'string') line += part;
    else {
      const bytes = Buffer.from(part.literal, 'utf8');
      line += `{${bytes.length}}\r\n`;
      literals.push(bytes);
    }
  }
  return { payload: Buffer.from(line, 'utf8'), literals };
}

const mailbox = (): MailboxObject => ({ path: 'INBOX', uidValidity: 7n, uidNext: 100, highestModseq: 50n, exists: 3, flags: new Set(), delimiter: '/', permanentFlags: new Set(), mailboxId: 'x' }) as unknown as MailboxObject;

async function both(response: { payload: Buffer; literals: Buffer[] }) {
  const theirsBox = mailbox();
  const oursBox = mailbox();
  const theirs = await formatMessageResponse(await parseResponse(response.payload, { literals: [...response.literals] }), theirsBox);
  const ours = fetchedMessage(await parseResponse(response.payload, { literals: [...response.literals] }), oursBox, 'ENVELOPE');
  return { theirs, ours, theirsBox, oursBox };
}

const ENVELOPE =
  '("Tue, 3 Nov 2026 09:15:00 +0100" "=?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus_K=C3=B6ln?=" (("=?ISO-8859-1?Q?Andr=E9?= Pirard" NIL "andre" "example.org")) ' +
  '(("Andre" NIL "andre" "example.org")) NIL (("Bea" NIL "bea" "tern.test")("Cem" NIL "cem" "tern.test")) (NIL NIL "list" "tern.test") NIL ' +
  '"<parent@example.org>" "<child@example.org>")';
const STRUCTURE =
  '((("text" "plain" ("charset" "utf-8") NIL NIL "quoted-printable" 220 7 NIL NIL NIL NIL)("text" "html" ("charset" "utf-8") NIL NIL "base64" 3000 40 NIL NIL NIL NIL) "alternative" ("boundary" "b1") NIL NIL NIL)' +
  '("application" "pdf" ("name" "Angebot.pdf") NIL NIL "base64" 7800 NIL ("attachment" ("filename" "Angebot.pdf")) NIL NIL) "mixed" ("boundary" "b0") NIL NIL NIL)';

describe('the lean FETCH reader reads a response as imapflow does', () => {
  test('the mirror\'s items: flags, envelope (encoded words), structure, dates, size, modseq, header and body literals', async () => {
    const response = wire([
      `* 12 FETCH (UID 120 FLAGS (\\Seen $Forwarded) INTERNALDATE "03-Nov-2026 09:15:02 +0100" RFC822.SIZE 10240 ENVELOPE ${ENVELOPE} `,
      `BODYSTRUCTURE ${STRUCTURE} MODSEQ (77) BODY[HEADER.FIELDS (REFERENCES)] `,
      { literal: 'References: <root@example.org>\r\n <parent@example.org>\r\n\r\n' },
      ' BODY[1]<0> ',
      { literal: '--b1\r\nContent-Type: text/plain\r\n\r\nHall=C3=B6' },
      ')',
    ]);
    const { theirs, ours, theirsBox, oursBox } = await both(response);
    expect(ours).not.toBeNull();
    const { id: _id, ...comparable } = theirs;
    expect(ours).toEqual(comparable);
    expect(ours!.envelope?.subject).toBe('Grüße aus Köln');
    // A UID past UIDNEXT and a higher MODSEQ move the mailbox state, as imapflow does.
    expect(oursBox).toEqual(theirsBox);
    expect(oursBox.uidNext).toBe(121);
    expect(oursBox.highestModseq).toBe(77n);
  });

  test('quoted strings instead of literals, NIL items, and items the mirror does not ask for', async () => {
    const response = wire([
      '* 3 FETCH (UID 5 FLAGS () ENVELOPE (NIL "" NIL NIL NIL NIL NIL NIL NIL NIL) BODYSTRUCTURE ("text" "plain" NIL NIL NIL "7bit" 0 0 NIL NIL NIL NIL) ',
      'EMAILID (M123) BODY[HEADER.FIELDS (REFERENCES)] NIL BODY[1]<0> "short body")',
    ]);
    const { theirs, ours } = await both(response);
    const { id: _id, emailId: _emailId, ...comparable } = theirs;
    // A NIL header block: imapflow says false (against its own type), this reader leaves it out; the mirror reads both as none.
    expect(theirs.headers).toBe(false);
    expect(ours).toEqual({ ...comparable, headers: undefined });
    expect(ours!.bodyParts?.get('1')).toEqual(Buffer.from('short body'));
  });

  test('responses it does not take: no ENVELOPE (an unsolicited flag change), or a section it does not know', async () => {
    const flagsOnly = wire(['* 4 FETCH (UID 9 FLAGS (\\Seen) MODSEQ (80))']);
    expect(fetchedMessage(await parseResponse(flagsOnly.payload, { literals: flagsOnly.literals }), mailbox(), 'ENVELOPE')).toBeNull();
    const mime = wire([`* 4 FETCH (UID 9 ENVELOPE ${ENVELOPE} BODY[1.MIME] `, { literal: 'Content-Type: text/plain\r\n\r\n' }, ')']);
    expect(fetchedMessage(await parseResponse(mime.payload, { literals: mime.literals }), mailbox(), 'ENVELOPE')).toBeNull();
  });
});
