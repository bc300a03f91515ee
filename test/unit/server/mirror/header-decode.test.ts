import type { FetchMessageObject } from 'imapflow';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { decodeHeaderValue, withRawNames } from '../../../../src-server/mirror/header-decode';
import { toMessageRecord } from '../../../../src-server/mirror/message-record';
import { parseMessageBody } from '../../../../src-server/reading/body-parser';
import { Readable } from 'node:stream';
import { tortureMessages, type TortureMessage } from '../../../harness/seed/torture';

// imapflow's own ENVELOPE decoding (tools.js parseEnvelope): the bytes read as UTF-8, then libmime's decodeWords.
const libmime = createRequire(import.meta.url)('libmime') as { decodeWords(text: string): string };
const asImapflowDecodes = (raw: Buffer) => libmime.decodeWords(raw.toString());

/** What the mirror's metadata FETCH brings for a torture message: imapflow's envelope and the raw header fields. */
function fetched(message: TortureMessage): FetchMessageObject {
  const head = message.source.subarray(0, message.source.indexOf('\r\n\r\n') + 2);
  const field = (name: string) => {
    const line = head.toString('latin1').split('\r\n').find((l) => l.toLowerCase().startsWith(`${name}:`))!;
    return Buffer.from(line.slice(name.length + 1).trim(), 'latin1');
  };
  const from = field('from');
  const nameBytes = from.subarray(0, from.lastIndexOf(0x3c /* < */)).toString('latin1').trim();
  return {
    seq: message.index,
    uid: message.index,
    envelope: { subject: asImapflowDecodes(field('subject')), from: [{ name: asImapflowDecodes(Buffer.from(nameBytes, 'latin1')), address: message.email }] },
    headers: Buffer.concat([Buffer.from('Subject: ', 'latin1'), field('subject'), Buffer.from('\r\nFrom: ', 'latin1'), from, Buffer.from('\r\n\r\n')]),
  } as FetchMessageObject;
}

const bytes = (latin1: string) => Buffer.from(latin1, 'latin1');

describe('header text decoded once from its bytes', () => {
  test.each([
    ['a raw Latin-1 byte inside an ISO-8859-1 word (the issue’s "Frï¿½sche")', '=?iso-8859-1?Q?Fr\xf6sche?=', 'Frösche'],
    ['raw UTF-8 inside a word labelled ISO-8859-1', '=?iso-8859-1?Q?Fr\xc3\xb6sche?=', 'Frösche'],
    ['raw UTF-8 inside a UTF-8 word', '=?utf-8?Q?Fr\xc3\xb6sche?=', 'Frösche'],
    ['a raw Latin-1 byte inside a word labelled UTF-8', '=?utf-8?Q?Fr\xf6sche?=', 'Frösche'],
    ['escapes and raw bytes in one word', '=?utf-8?Q?Fr=C3=B6sche_\xe9t\xe9?=', 'Frösche été'],
    ['a character split across two words, the space between them dropped', '=?utf-8?B?TWHF?= =?utf-8?B?gmdvcnphdGE=?=', 'Małgorzata'],
    ['words between ASCII text, KOI8-R', 'Re: =?koi8-r?B?8NLJ18XU?= (2)', 'Re: Привет (2)'],
    ['a label with an RFC 2231 language', '=?UTF-8*de?q?Gr=C3=BC=C3=9Fe?=', 'Grüße'],
    ['raw UTF-8 without words (RFC 6532)', 'Ma\xc5\x82gorzata', 'Małgorzata'],
    ['raw Windows-1252 without words', 'caf\xe9 \x93ok\x94', 'café “ok”'],
    ['a folded header', '=?utf-8?Q?a?=\r\n =?utf-8?Q?b?= c', 'ab c'],
  ])('%s', (_name, raw, expected) => {
    expect(decodeHeaderValue(bytes(raw))).toBe(expected);
  });

  test('names come from the raw field, addresses from the envelope; a decoded comma splits nothing', () => {
    const raw = bytes('"=?utf-8?Q?Doe=2C_J=C3=B6hn?=" <j@d.test>, =?iso-8859-1?Q?Fr\xf6sche?= <f@x.test>, plain@y.test');
    const envelope = [{ name: 'Doe, Jï¿½hn', email: 'j@d.test' }, { name: 'Frï¿½sche', email: 'F@x.test' }, { name: '', email: 'plain@y.test' }];
    expect(withRawNames(envelope, raw)).toEqual([
      { name: 'Doe, Jöhn', email: 'j@d.test' },
      { name: 'Frösche', email: 'F@x.test' },
      { name: '', email: 'plain@y.test' },
    ]);
  });

  test('all 112 messages of the torture set, as the mirror records them: subject and sender name as written, no U+FFFD, no mojibake', () => {
    const set = tortureMessages({ to: 'alice@tern.test' });
    expect(set).toHaveLength(112);
    const wrong: string[] = [];
    for (const message of set) {
      const record = toMessageRecord(fetched(message));
      const name = record.from[0]?.name;
      if (record.subject !== message.expectedSubject || name !== message.expectedName) wrong.push(`${message.index} ${message.label}: ${record.subject} / ${name}`);
      expect(record.subject + name).not.toMatch(/\ufffd|Ã|ï¿½/);
    }
    expect(wrong).toEqual([]);
  });

  test('all 112 opened: the parsed headers (subject, From) read as written too', async () => {
    const wrong: string[] = [];
    for (const message of tortureMessages({ to: 'alice@tern.test' })) {
      const { body } = await parseMessageBody(Readable.from([message.source]), { messageId: String(message.index), stored: [] });
      if (body.headers.subject !== message.expectedSubject || !body.headers.from?.startsWith(`"${message.expectedName}" <`)) wrong.push(`${message.index} ${message.label}: ${body.headers.subject} / ${body.headers.from}`);
    }
    expect(wrong).toEqual([]);
  });

  test('the envelope alone (imapflow) misreads the torture set: the figure the fix is measured against', () => {
    const set = tortureMessages({ to: 'alice@tern.test' });
    const misread = set.filter((message) => fetched(message).envelope!.subject !== message.expectedSubject);
    console.log(`[torture] imapflow's envelope misreads ${misread.length} of ${set.length} subjects, e.g. ${misread[0]?.label}: ${fetched(misread[0]!).envelope!.subject}`);
    expect(misread.map((message) => fetched(message).envelope!.subject)).toContain('Frï¿½sche');
  });
});
