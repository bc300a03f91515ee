import { describe, expect, test } from 'vitest';
import { buildMime, newMessageIdHeader, type OutgoingMessage } from '../../../../src-server/smtp/mime-builder';
import { plainAlternative } from '../../../../src-server/smtp/plain-alternative';
import { classifySmtpError } from '../../../../src-server/smtp/smtp-errors';
import { referencesIn, trimReferences } from '../../../../src-server/drafts/parent-resolver';

const message: OutgoingMessage = {
  from: { name: 'Alice Tern', email: 'alice@tern.test' },
  to: [{ name: 'Bob', email: 'bob@kite.test' }],
  cc: [],
  bcc: [{ name: 'Carol', email: 'carol@kite.test' }],
  subject: 'Quarterly numbers',
  html: '<p>Hi <b>Bob</b></p>',
  text: 'Hi Bob',
  inReplyTo: '<parent@kite.test>',
  references: ['<root@kite.test>', '<parent@kite.test>'],
  attachments: [{ filename: 'q3.csv', contentType: 'text/csv', content: Buffer.from('a,b\n1,2\n') }],
  messageIdHeader: '<fixed-id@tern.test>',
  date: new Date('2026-11-02T10:00:00Z'),
};

describe('MIME', () => {
  test('the fixed Message-ID and threading headers are there; Bcc only in the kept copy', async () => {
    const wire = (await buildMime(message, { keepBcc: false })).toString();
    const copy = (await buildMime(message, { keepBcc: true })).toString();
    expect(wire).toMatch(/^Message-ID: <fixed-id@tern\.test>\r$/m);
    expect(wire).toMatch(/^In-Reply-To: <parent@kite\.test>\r$/m);
    expect(wire).toMatch(/^References: <root@kite\.test> <parent@kite\.test>\r$/m);
    expect(wire).not.toMatch(/^Bcc:/im);
    expect(wire).not.toContain('carol@kite.test');
    expect(copy).toMatch(/^Bcc: Carol <carol@kite\.test>\r$/m);
    expect(wire).toContain('filename=q3.csv');
  });

  test('Message-IDs are unique and in the sender’s domain', () => {
    const a = newMessageIdHeader('alice@tern.test');
    expect(a).toMatch(/^<[0-9a-f-]{36}@tern\.test>$/);
    expect(newMessageIdHeader('alice@tern.test')).not.toBe(a);
  });

  test('the plain alternative keeps paragraphs and link targets', () => {
    expect(plainAlternative('<p>Hello&nbsp;Bob,</p><p>see <a href="https://x.example/a">the report</a><br>thanks</p><style>p{}</style>')).toBe(
      'Hello Bob,\n\nsee the report <https://x.example/a>\nthanks',
    );
  });
});

describe('reply headers', () => {
  test('References are read from a folded header block and trimmed to root plus newest', () => {
    const block = Buffer.from('References: <a@x>\r\n <b@x>\r\n\t<c@x>\r\n\r\n');
    expect(referencesIn(block)).toEqual(['<a@x>', '<b@x>', '<c@x>']);
    const many = Array.from({ length: 30 }, (_, i) => `<m${i}@x>`);
    const trimmed = trimReferences(many);
    expect(trimmed).toHaveLength(20);
    expect(trimmed[0]).toBe('<m0@x>');
    expect(trimmed.at(-1)).toBe('<m29@x>');
  });
});

describe('SMTP failures', () => {
  test('a refused recipient is permanent, with the server’s words', () => {
    const failure = classifySmtpError(
      Object.assign(new Error("Can't send mail - all recipients were rejected"), {
        code: 'EENVELOPE',
        responseCode: 550,
        response: '550 5.1.1 <nobody@kite.test>: Recipient address rejected: User unknown in virtual mailbox table',
      }),
    );
    expect(failure).toMatchObject({ permanent: true, responseCode: 550, tooLarge: false });
    expect(failure.reason).toContain('User unknown');
    expect(failure.reason).not.toMatch(/\bat\b.*\.js:\d+/);
  });

  test('network trouble and 4xx are transient; a refused login and 552 are not', () => {
    expect(classifySmtpError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' })).permanent).toBe(false);
    expect(classifySmtpError(Object.assign(new Error('x'), { code: 'EENVELOPE', responseCode: 451, response: '451 4.3.0 try later' })).permanent).toBe(false);
    expect(classifySmtpError(Object.assign(new Error('Invalid login'), { code: 'EAUTH' })).permanent).toBe(true);
    expect(classifySmtpError(Object.assign(new Error('x'), { code: 'EMESSAGE', responseCode: 552, response: '552 5.3.4 Message size exceeds fixed limit' }))).toMatchObject({
      permanent: true,
      tooLarge: true,
    });
  });
});
