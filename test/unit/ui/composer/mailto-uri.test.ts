/** The mailto: parser (RFC 6068): what a link in a mail, the default-mail-app handler and an installed app hand to the composer. */
import { expect, test } from 'vitest';
import { isMailtoUri, mailtoFromParams, parseMailto, percentDecode } from '../../../../src-ui/composer/mailto-uri';

const emails = (list: readonly { email: string }[]) => list.map((address) => address.email);

test('the addresses of the path and of every to= go to To; cc and bcc add up; several addresses per field', () => {
  const fields = parseMailto('mailto:ann@example.com,bob@example.com?to=cat@example.com&cc=dan@example.com,eve@example.com&bcc=fay@example.com&cc=gus@example.com');
  expect(emails(fields.to)).toEqual(['ann@example.com', 'bob@example.com', 'cat@example.com']);
  expect(emails(fields.cc)).toEqual(['dan@example.com', 'eve@example.com', 'gus@example.com']);
  expect(emails(fields.bcc)).toEqual(['fay@example.com']);
});

test('values are percent-decoded once as UTF-8; + stays a plus; CRLF in the body becomes a line break', () => {
  const fields = parseMailto('mailto:%22not%20a%20name%22@example.com?subject=Caf%C3%A9%20%2B%20cr%C3%A8me+br%C3%BBl%C3%A9e%2520&body=Line%201%0D%0ALine%202%0A%0D%0A3%20%26%20more');
  expect(emails(fields.to)).toEqual(['"not a name"@example.com']);
  expect(fields.subject).toBe('Café + crème+brûlée%20');
  expect(fields.body).toBe('Line 1\nLine 2\n\n3 & more');
});

test('field names are case-insensitive; unknown fields are ignored; the first subject and body count', () => {
  const fields = parseMailto('MAILTO:ann@example.com?Subject=First&SUBJECT=Second&In-Reply-To=%3C1@x%3E&Body=Hello&body=Again&CC=bob@example.com');
  expect(fields.subject).toBe('First');
  expect(fields.body).toBe('Hello');
  expect(emails(fields.cc)).toEqual(['bob@example.com']);
});

test('no address, or no fields at all; "Name <address>"; a malformed escape stays as written', () => {
  expect(parseMailto('mailto:?subject=Hi')).toEqual({ to: [], cc: [], bcc: [], subject: 'Hi', body: '' });
  expect(parseMailto('mailto:')).toEqual({ to: [], cc: [], bcc: [], subject: '', body: '' });
  expect(parseMailto('mailto:%22Ann%20Lee%22%20%3Cann@example.com%3E').to).toEqual([{ name: 'Ann Lee', email: 'ann@example.com' }]);
  expect(parseMailto('mailto:ann@example.com?subject=100%%20sure%E2%9C').subject).toBe('100% sure%E2%9C');
  expect(percentDecode('a%ZZ%41')).toBe('a%ZZA');
});

test('only mailto: URIs are taken for one', () => {
  expect(isMailtoUri('mailto:ann@example.com')).toBe(true);
  expect(isMailtoUri(' MailTo:ann@example.com')).toBe(true);
  expect(isMailtoUri('ann@example.com')).toBe(false);
  expect(isMailtoUri('javascript:alert(1)')).toBe(false);
});

test('/compose takes a whole mailto: URI (uri=, or to= as a handler’s %s) or the fields one by one', () => {
  expect(mailtoFromParams({ uri: 'mailto:ann@example.com?subject=Hi' })).toBe('mailto:ann@example.com?subject=Hi');
  expect(mailtoFromParams({ to: 'mailto:ann@example.com?subject=Hi' })).toBe('mailto:ann@example.com?subject=Hi');
  const built = parseMailto(mailtoFromParams({ to: 'ann@example.com, bob@example.com', cc: 'cat@example.com', subject: 'A & B = 100%', body: 'One\nTwo' }));
  expect(emails(built.to)).toEqual(['ann@example.com', 'bob@example.com']);
  expect(emails(built.cc)).toEqual(['cat@example.com']);
  expect(built.subject).toBe('A & B = 100%');
  expect(built.body).toBe('One\nTwo');
  // A uri= that is not a mailto: URI is not taken for one.
  expect(mailtoFromParams({ uri: 'javascript:alert(1)', to: 'ann@example.com' })).toBe('mailto:ann@example.com');
});
