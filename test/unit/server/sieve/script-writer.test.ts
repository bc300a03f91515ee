// The Sieve Tern writes from a rules document: escaping, text: blocks, the order of sections,
// and the guards an auto reply needs. (That Pigeonhole accepts and runs it: sieve-rules.test.ts.)
import { describe, expect, test } from 'vitest';
import { EMPTY_RULES, type MailRules } from '../../../../shared/mail-rules';
import { quote, textBlock, writeScript, zoneOffset, type ScriptContext } from '../../../../src-server/sieve/script-writer';

const ctx: ScriptContext = { spamFolder: 'Junk', trashFolder: 'Trash', addresses: ['alice@tern.test'], includeScript: null, now: new Date('2026-01-15T12:00:00Z') };

describe('Sieve strings', () => {
  test('a quoted string escapes backslash and double quote only', () => {
    expect(quote('a "b" \\c ${d}')).toBe('"a \\"b\\" \\\\c ${d}"');
  });

  test('a text: block dot-stuffs lines that start with a dot and ends with a lone dot', () => {
    expect(textBlock('one\n.\n..two\nthree')).toBe('text:\r\none\r\n..\r\n...two\r\nthree\r\n.\r\n');
  });
});

describe('the script', () => {
  test('no rules: only the header, no require', () => {
    const script = writeScript(EMPTY_RULES, ctx);
    expect(script).not.toMatch(/require/);
    expect(script).not.toMatch(/^if /m);
  });

  test('blocked senders come first, spare allowed ones, and stop; a person\'s own script is included last', () => {
    const rules: MailRules = {
      ...EMPTY_RULES,
      blocked: ['bad@x.test', 'spam.test'],
      allowed: ['ok@spam.test'],
      filters: [{ id: 'a', name: 'A', enabled: true, match: 'all', conditions: [{ field: 'subject', op: 'notContains', value: 'x"y' }], actions: [{ kind: 'stop' }, { kind: 'move', folder: 'Archive/2026' }, { kind: 'star' }] }],
    };
    const script = writeScript(rules, { ...ctx, includeScript: 'roundcube' });
    expect(script).toContain('require ["fileinto", "imap4flags", "include"];');
    const block = script.indexOf('# Blocked senders');
    const filter = script.indexOf('# Filter: A');
    const include = script.indexOf('include :personal "roundcube";');
    expect(block).toBeGreaterThan(0);
    expect(filter).toBeGreaterThan(block);
    expect(include).toBeGreaterThan(filter);
    expect(script).toContain('if allof(not address :is "from" "ok@spam.test", anyof(address :is "from" "bad@x.test", address :domain :is "from" "spam.test")) {\r\n  fileinto "Junk";\r\n  stop;');
    // Flags before the move, stop after it.
    expect(script).toContain('if not header :contains "subject" "x\\"y" {\r\n  addflag "\\\\Flagged";\r\n  fileinto "Archive/2026";\r\n  stop;\r\n}');
  });

  test('blocked senders are discarded when asked, or when there is no Spam folder', () => {
    const rules: MailRules = { ...EMPTY_RULES, blocked: ['bad@x.test'] };
    expect(writeScript({ ...rules, blockAction: 'discard' }, ctx)).toContain('discard;');
    expect(writeScript(rules, { ...ctx, spamFolder: null })).toContain('discard;');
  });

  test('an auto reply is a MIME vacation inside the date window, with the account\'s addresses, never to lists or no-reply senders', () => {
    const rules: MailRules = { ...EMPTY_RULES, autoReply: { enabled: true, subject: 'Away "now"', body: '<b>Away</b>\n.', startDate: '2026-12-20', endDate: '2027-01-02', days: 3 } };
    const script = writeScript(rules, ctx);
    expect(script).toContain('require ["date", "relational", "vacation"];');
    expect(script).toContain('exists "list-id"');
    expect(script).toContain('header :contains "precedence" ["bulk", "list", "junk"]');
    expect(script).toMatch(/address :localpart :matches "from" \[.*"\*no-reply\*"/);
    expect(script).toContain('allof(currentdate :value "ge" "date" "2026-12-20", currentdate :value "le" "date" "2027-01-02")');
    expect(script).toContain('vacation :days 3 :subject "Away \\"now\\"" :addresses "alice@tern.test" :mime\r\ntext:\r\nContent-Type: multipart/alternative');
    // The text is escaped in the HTML part and dot-stuffed in both.
    expect(script).toContain('&lt;b&gt;Away&lt;/b&gt;');
    expect(script).toContain('\r\n..\r\n');
  });

  test('business hours: the zone\'s offset at the save, weekdays as Sieve numbers, and one vacation per run (elsif)', () => {
    const rules: MailRules = {
      ...EMPTY_RULES,
      autoReply: { ...EMPTY_RULES.autoReply, enabled: true, body: 'Away' },
      businessHours: { enabled: true, workDays: [1, 2, 3, 4, 5, 7], start: '08:30', end: '17:00', timeZone: 'Europe/Berlin', subject: 'Closed', body: 'We are closed.' },
    };
    const script = writeScript(rules, ctx);
    expect(script).toContain('require ["comparator-i;ascii-numeric", "date", "relational", "vacation"];');
    expect(script).toContain('} elsif not allof(currentdate :zone "+0100" :is "weekday" ["1", "2", "3", "4", "5", "0"]');
    expect(script).toContain('currentdate :zone "+0100" :value "lt" :comparator "i;ascii-numeric" "hour" "17"');
    expect(script).toContain('currentdate :zone "+0100" :value "ge" :comparator "i;ascii-numeric" "minute" "30"');
    expect(writeScript(rules, { ...ctx, now: new Date('2026-07-15T12:00:00Z') })).toContain(':zone "+0200"');
  });

  test('zone offsets follow daylight saving time', () => {
    expect(zoneOffset('America/New_York', new Date('2026-01-15T12:00:00Z'))).toBe('-0500');
    expect(zoneOffset('America/New_York', new Date('2026-07-15T12:00:00Z'))).toBe('-0400');
    expect(zoneOffset('Asia/Kolkata', new Date('2026-07-15T12:00:00Z'))).toBe('+0530');
    expect(zoneOffset('UTC', new Date())).toBe('+0000');
  });

  test('forwarding keeps a copy with :copy, or not', () => {
    expect(writeScript({ ...EMPTY_RULES, forwarding: { enabled: true, address: 'me@else.test', keepCopy: true } }, ctx)).toContain('redirect :copy "me@else.test";');
    const moved = writeScript({ ...EMPTY_RULES, forwarding: { enabled: true, address: 'me@else.test', keepCopy: false } }, ctx);
    expect(moved).toContain('redirect "me@else.test";');
    expect(moved).not.toContain('require "copy"');
  });
});
