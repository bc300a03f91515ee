// Writes messages straight into a Dovecot Maildir++ tree (no server needed).
//
// Layout (mail_location = maildir:~/Maildir, hierarchy separator "/"):
//   INBOX          -> <root>/{cur,new,tmp}
//   Sent           -> <root>/.Sent/{cur,new,tmp} + empty `maildirfolder`
//   Projects/2026  -> <root>/.Projects.2026/...
// Folder names must be ASCII without "." (no modified-UTF-7 / escaping here).
//
// File names: "<unixtime>.M<seq>P<uniq>.tern,S=<bytes>:2,<flags>". Dovecot
// assigns UIDs to new files in filename-timestamp order, so the leading time
// makes UID order follow the Date header. <uniq> stands where Maildir puts the
// pid; it is the seed, not process.pid, so that two runs produce the same names.
// Dovecot takes INTERNALDATE from the file mtime, so mtime is set to the Date.

import { closeSync, futimesSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface MailFlags {
  draft?: boolean;
  flagged?: boolean;
  answered?: boolean;
  seen?: boolean;
  trashed?: boolean;
}

/** Maildir info suffix: letters in ASCII order (D F R S T), as the spec requires. */
export function flagSuffix(f: MailFlags): string {
  return ':2,' + (f.draft ? 'D' : '') + (f.flagged ? 'F' : '') + (f.answered ? 'R' : '') + (f.seen ? 'S' : '') + (f.trashed ? 'T' : '');
}

/** Directory of a folder, "INBOX" being the root itself. */
export function folderDir(root: string, folder: string): string {
  if (folder === 'INBOX') return root;
  return join(root, '.' + folder.split('/').join('.'));
}

export class MaildirWriter {
  private readonly curDirs = new Map<string, string>();
  private buf = Buffer.allocUnsafe(1 << 20);

  constructor(
    readonly root: string,
    private readonly uniq: string,
  ) {
    mkdirSync(root, { recursive: true });
  }

  /** Creates {cur,new,tmp} (and `maildirfolder` below the root); returns the cur/ path. */
  ensureFolder(folder: string): string {
    let cur = this.curDirs.get(folder);
    if (cur) return cur;
    const dir = folderDir(this.root, folder);
    cur = join(dir, 'cur');
    mkdirSync(cur, { recursive: true });
    mkdirSync(join(dir, 'new'), { recursive: true });
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    if (folder !== 'INBOX') writeFileSync(join(dir, 'maildirfolder'), '');
    this.curDirs.set(folder, cur);
    return cur;
  }

  /**
   * Writes one message into <folder>/cur with its mtime/atime set to `unixSec`.
   * One reused buffer, and open + write + futimes + close: 4 syscalls per message.
   * Returns the file name and byte size.
   */
  write(folder: string, unixSec: number, seq: number, message: string, flags: MailFlags): { name: string; bytes: number } {
    const cur = this.ensureFolder(folder);
    if (this.buf.length < message.length * 3) this.buf = Buffer.allocUnsafe(message.length * 3 + 1024);
    const bytes = this.buf.write(message, 0, 'utf8');
    const name = unixSec + '.M' + seq + 'P' + this.uniq + '.tern,S=' + bytes + flagSuffix(flags);
    const fd = openSync(cur + '/' + name, 'w', 0o600);
    try {
      let off = 0;
      while (off < bytes) off += writeSync(fd, this.buf, off, bytes - off);
      futimesSync(fd, unixSec, unixSec);
    } finally {
      closeSync(fd);
    }
    return { name, bytes };
  }

  /**
   * Dovecot 2.3 `subscriptions` file (checked against what `doveadm mailbox
   * subscribe` writes): "V\t2\n\n", then one mailbox per line with the
   * hierarchy separator written as a TAB.
   */
  writeSubscriptions(folders: readonly string[]): void {
    let s = 'V\t2\n\n';
    for (const f of folders) s += f.split('/').join('\t') + '\n';
    writeFileSync(join(this.root, 'subscriptions'), s);
  }
}
