// Pure checks of the Cyrus side of the harness: its rendered configs, and how seeded
// Maildir files become APPENDs. No daemons, no root needed.
import { describe, expect, it } from 'vitest';
import { CYRUS_SPECIAL_USE_FOLDERS, cyrusLayout, renderCyrusConf, renderImapdConf } from '../harness/cyrus-config';
import { imapDateTime, maildirFileMeta } from '../harness/seed/imap-upload';
import { cyrusRuntimePackages } from '../harness/system-packages';

const layout = cyrusLayout('/srv/tern-data/cyrus');
const params = { layout, imapPort: 11430, lmtpPort: 11431, user: 'mail', group: 'mail' };

describe('cyrus config', () => {
  const imapd = renderImapdConf(params);
  const lines = new Set(imapd.split('\n'));

  it('keeps every path under its own directory and runs as the mail user', () => {
    for (const key of ['configdirectory', 'partition-default', 'sievedir', 'proc_path', 'lmtpsocket', 'idlesocket', 'sasl_sasldb_path', 'temp_path']) {
      const line = imapd.split('\n').find((candidate) => candidate.startsWith(`${key}: `));
      expect(line, key).toMatch(/: \/srv\/tern-data\/cyrus\//);
    }
    expect(lines.has('cyrus_user: mail')).toBe(true);
  });

  it("runs the namespace providers run, with Cyrus's lower-case special-use folders", () => {
    for (const line of ['unixhierarchysep: yes', 'altnamespace: yes', 'virtdomains: userid', 'xlist-sent: Sent', 'xlist-archive: Archive', 'xlist-junk: Junk']) {
      expect(lines.has(line), line).toBe(true);
    }
    expect(CYRUS_SPECIAL_USE_FOLDERS.map((folder) => folder.flag)).toEqual(['drafts', 'sent', 'archive', 'junk', 'trash']);
    expect(lines.has('autocreate_inbox_folders: Drafts|Sent|Archive|Junk|Trash')).toBe(true);
  });

  it('authenticates against the sasldb, and LMTP creates no mailbox for an unknown user', () => {
    expect(lines.has('sasl_pwcheck_method: auxprop')).toBe(true);
    expect(lines.has('sasl_auxprop_plugin: sasldb')).toBe(true);
    expect(lines.has('autocreate_post: no')).toBe(true);
    expect(lines.has('munge8bit: no')).toBe(true);
  });

  it('listens on loopback only, with the config passed to every service', () => {
    const conf = renderCyrusConf({ ...params, binDir: '/opt/cyrus/bin' });
    expect(conf).toContain('listen="127.0.0.1:11430"');
    expect(conf).toContain('listen="127.0.0.1:11431"');
    expect(conf).toContain('cmd="/opt/cyrus/bin/lmtpd -C /srv/tern-data/cyrus/imapd.conf -a"');
    expect(conf).not.toMatch(/listen="(imap|lmtp|\d+)"/);
    expect(() => renderCyrusConf({ ...params, imapPort: 0, binDir: '/opt/cyrus/bin' })).toThrow(/Invalid IMAP port/);
    expect(() => renderImapdConf({ ...params, layout: cyrusLayout('/srv/with space') })).toThrow(/absolute path/);
  });

  it('needs shared libraries from apt, never cyrus-imapd or cyrus-common themselves', () => {
    const names = cyrusRuntimePackages().map((pkg) => pkg.name);
    expect(names).toEqual(expect.arrayContaining(['libical3', 'libpcre3', 'libxapian30', 'sasl2-bin']));
    expect(names.some((name) => name.startsWith('cyrus-'))).toBe(false);
  });
});

describe('seeding over IMAP', () => {
  it("reads a seeded Maildir file's date and flags from its name", () => {
    expect(maildirFileMeta('1793523600.M17P1.tern,S=2048:2,FS')).toEqual({ date: new Date(1793523600 * 1000), flags: ['\\Flagged', '\\Seen'] });
    expect(maildirFileMeta('1793523600.M18P1.tern,S=99:2,')).toEqual({ date: new Date(1793523600 * 1000), flags: [] });
    expect(maildirFileMeta('1.M1P1.tern,S=1:2,DRT').flags).toEqual(['\\Draft', '\\Answered', '\\Deleted']);
  });

  it('writes INTERNALDATE as RFC 3501 date-time in UTC', () => {
    expect(imapDateTime(new Date('2026-11-01T09:05:07Z'))).toBe('01-Nov-2026 09:05:07 +0000');
    expect(imapDateTime(new Date('2026-02-28T23:59:59Z'))).toBe('28-Feb-2026 23:59:59 +0000');
  });
});
