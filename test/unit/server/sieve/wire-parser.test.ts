// The ManageSieve wire reader on lines recorded from Dovecot Pigeonhole 2.3 (and RFC 5804's
// examples), fed whole and byte by byte: a packet edge anywhere must not change what is read.
import { describe, expect, test } from 'vitest';
import { readCapabilities, statusOf, WireProtocolError, WireReader, wireString, type WireLine } from '../../../../src-server/sieve/wire-parser';

const GREETING = [
  '"IMPLEMENTATION" "Dovecot Pigeonhole"',
  '"SIEVE" "fileinto reject envelope encoded-character vacation subaddress comparator-i;ascii-numeric relational regex imap4flags copy include variables body enotify environment mailbox date index ihave duplicate mime foreverypart extracttext"',
  '"NOTIFY" "mailto"',
  '"SASL" "PLAIN LOGIN"',
  '"STARTTLS"',
  '"VERSION" "1.0"',
  'OK "Dovecot ready."',
  '',
].join('\r\n');

function readAll(text: string | Buffer, byteByByte = false): WireLine[] {
  const reader = new WireReader();
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  if (!byteByByte) return reader.push(bytes);
  const lines: WireLine[] = [];
  for (let i = 0; i < bytes.length; i += 1) lines.push(...reader.push(bytes.subarray(i, i + 1)));
  return lines;
}

describe('the wire reader', () => {
  test.each([false, true])('reads the greeting into capabilities (byte by byte: %s)', (byteByByte) => {
    const lines = readAll(GREETING, byteByByte);
    expect(lines).toHaveLength(7);
    const caps = readCapabilities(lines.slice(0, -1));
    expect(caps.implementation).toBe('Dovecot Pigeonhole');
    expect(caps.extensions.has('vacation')).toBe(true);
    expect(caps.extensions.has('editheader')).toBe(false);
    expect(caps.sasl).toEqual(['PLAIN', 'LOGIN']);
    expect(caps.starttls).toBe(true);
    expect(statusOf(lines[6]!)).toEqual({ status: 'OK', code: [], text: 'Dovecot ready.' });
  });

  test.each([false, true])('reads a GETSCRIPT literal with CRLFs and UTF-8 inside (byte by byte: %s)', (byteByByte) => {
    const script = 'require "fileinto";\r\n# Grüße\r\nif header :is "x" "{3}" { fileinto "Ä"; }\r\n';
    const wire = Buffer.concat([Buffer.from(`{${Buffer.byteLength(script)}}\r\n`), Buffer.from(script), Buffer.from('\r\nOK "Getscript completed."\r\n')]);
    const lines = readAll(wire, byteByByte);
    expect(lines[0]).toEqual([{ kind: 'string', value: script }]);
    expect(statusOf(lines[1]!)?.status).toBe('OK');
  });

  test('reads LISTSCRIPTS lines with the ACTIVE flag and escaped quotes', () => {
    const lines = readAll('"tern" ACTIVE\r\n"my \\"old\\" rules"\r\nOK "Listscripts completed."\r\n');
    expect(lines[0]).toEqual([{ kind: 'string', value: 'tern' }, { kind: 'atom', value: 'ACTIVE' }]);
    expect(lines[1]).toEqual([{ kind: 'string', value: 'my "old" rules' }]);
  });

  test('reads response codes: QUOTA/MAXSIZE, WARNINGS, and a NO whose text is a literal', () => {
    const [quota, warnings, checked] = readAll(
      'NO (QUOTA/MAXSIZE) "Script is too large (max 10 bytes)."\r\nOK (WARNINGS) "line 2: warning"\r\nNO {27}\r\nline 1: error\r\nline 2: more\r\n',
    );
    expect(statusOf(quota!)).toEqual({ status: 'NO', code: ['QUOTA/MAXSIZE'], text: 'Script is too large (max 10 bytes).' });
    expect(statusOf(warnings!)).toEqual({ status: 'OK', code: ['WARNINGS'], text: 'line 2: warning' });
    expect(statusOf(checked!)).toEqual({ status: 'NO', code: [], text: 'line 1: error\r\nline 2: more' });
  });

  test('reads a code with arguments (TAG, SASL) and a BYE', () => {
    const [tag, bye] = readAll('OK (TAG "a1") "done"\r\nBYE (REFERRAL "sieve://other") "go away"\r\n');
    expect(statusOf(tag!)).toEqual({ status: 'OK', code: ['TAG', 'a1'], text: 'done' });
    expect(statusOf(bye!)?.code).toEqual(['REFERRAL', 'sieve://other']);
  });

  test('waits for the rest of a split literal and keeps what follows', () => {
    const reader = new WireReader();
    expect(reader.push(Buffer.from('{10}\r\n12345'))).toEqual([]);
    expect(reader.push(Buffer.from('67890\r\nOK'))).toEqual([[{ kind: 'string', value: '1234567890' }]]);
    expect(reader.push(Buffer.from('\r\n'))).toEqual([[{ kind: 'atom', value: 'OK' }]]);
  });

  test('refuses a line break inside a quoted string and a malformed literal', () => {
    expect(() => readAll('"one\r\ntwo"\r\n')).toThrow(WireProtocolError);
    expect(() => readAll('{x}\r\n')).toThrow(WireProtocolError);
  });
});

describe('strings sent to the server', () => {
  test('a short one-line string is quoted with \\ and " escaped', () => {
    expect(wireString('say "hi" \\ bye').toString()).toBe('"say \\"hi\\" \\\\ bye"');
  });

  test('a multi-line or long string is a non-synchronizing literal counted in bytes', () => {
    expect(wireString('ä\r\nb').toString()).toBe('{5+}\r\nä\r\nb');
    expect(wireString('x'.repeat(2000)).subarray(0, 8).toString()).toBe('{2000+}\r');
  });
});
