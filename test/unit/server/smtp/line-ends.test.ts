// Every message Tern writes to IMAP (Drafts, the Sent copy) or SMTP has CRLF line ends only:
// Cyrus refuses an APPEND with a bare LF ("Message contains bare newlines").
import { describe, expect, test } from 'vitest';
import { MessageAssembler } from '../../../../src-server/drafts/message-assembler';
import type { UploadStore } from '../../../../src-server/drafts/upload-store';
import { buildMime, type OutgoingMessage } from '../../../../src-server/smtp/mime-builder';
import { crlfLineEnds, hasBareLineEnd } from '../../../../src-server/smtp/line-ends';

const bytes = (text: string) => Buffer.from(text, 'latin1');

/** Every body a person can produce: a textarea's LF, Windows' CRLF, an old Mac's CR, mixed, non-ASCII (quoted-printable). */
const BODIES = {
  lf: 'Hi Bob,\n\nline two\nline three\n',
  crlf: 'Hi Bob,\r\n\r\nline two\r\n',
  cr: 'Hi Bob,\r\rline two\r',
  mixed: 'one\ntwo\r\nthree\rfour\n\rfive',
  nonAscii: 'Grüße,\nBob\r\n— Alice\r',
};

function outgoing(text: string, html: string | null): OutgoingMessage {
  return {
    from: { name: 'Alice Tern', email: 'alice@tern.test' },
    to: [{ name: 'Bob', email: 'bob@kite.test' }],
    cc: [],
    bcc: [{ name: 'Carol', email: 'carol@kite.test' }],
    subject: 'Line ends',
    html,
    text,
    inReplyTo: null,
    references: [],
    attachments: [{ filename: 'notes.txt', contentType: 'text/plain', content: Buffer.from('a\nb\rc') }],
    messageIdHeader: '<line-ends@tern.test>',
    date: new Date('2026-11-02T10:00:00Z'),
  };
}

describe('crlfLineEnds', () => {
  test('writes every lone LF and lone CR as CRLF and leaves CRLF alone', () => {
    expect(crlfLineEnds(bytes('a\nb\r\nc\rd\n\re')).toString('latin1')).toBe('a\r\nb\r\nc\r\nd\r\n\r\ne');
    expect(crlfLineEnds(bytes('\n\n')).toString('latin1')).toBe('\r\n\r\n');
    expect(crlfLineEnds(bytes('end\r')).toString('latin1')).toBe('end\r\n');
  });

  test('a message already in CRLF comes back as the same buffer', () => {
    const canonical = bytes('Subject: x\r\n\r\nbody\r\n');
    expect(crlfLineEnds(canonical)).toBe(canonical);
  });

  test('hasBareLineEnd finds a lone LF or CR anywhere, including the first and last byte', () => {
    expect(hasBareLineEnd(bytes('a\r\nb\r\n'))).toBe(false);
    expect(hasBareLineEnd(bytes('\nabc'))).toBe(true);
    expect(hasBareLineEnd(bytes('abc\r'))).toBe(true);
    expect(hasBareLineEnd(bytes('a\r\r\nb'))).toBe(true);
  });
});

describe('built messages have no bare line end', () => {
  for (const [kind, body] of Object.entries(BODIES)) {
    test(`text and HTML bodies with ${kind} line ends, for SMTP and for the kept copy`, async () => {
      const html = `<p>${body}</p>`;
      for (const keepBcc of [false, true]) {
        const raw = await buildMime(outgoing(body, html), { keepBcc });
        expect(hasBareLineEnd(raw), raw.toString('latin1')).toBe(false);
      }
      const textOnly = await buildMime(outgoing(body, null), { keepBcc: false });
      expect(hasBareLineEnd(textOnly), textOnly.toString('latin1')).toBe(false);
    });
  }

  test('the line breaks survive as CRLF in a 7bit text part', async () => {
    const raw = (await buildMime(outgoing(BODIES.mixed, null), { keepBcc: false })).toString('latin1');
    expect(raw).toContain('one\r\ntwo\r\nthree\r\nfour\r\n\r\nfive');
  });

  test('MessageAssembler.raw, which drafts and the outbox append and send, is CRLF too', async () => {
    const assembler = new MessageAssembler({ accounts: { get: async () => undefined }, uploads: {} as UploadStore });
    for (const keepBcc of [false, true]) {
      const raw = await assembler.raw(outgoing(BODIES.mixed, `<p>${BODIES.lf}</p>`), { keepBcc });
      expect(hasBareLineEnd(raw)).toBe(false);
    }
  });
});
