import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts secrets at rest (IMAP/SMTP passwords, TOTP seeds) with AES-256-GCM under a key
 * that never enters the database. Layout: version byte, 12-byte IV, 16-byte tag, ciphertext.
 * The account id is bound in as associated data, so a secret copied to another row fails.
 */
export class SecretBox {
  private constructor(
    private readonly key: Buffer,
    /** Where the key came from (the key file's path or TERN_SECRET_KEY), for start-up messages. */
    readonly source: string,
  ) {}

  /**
   * The key comes from TERN_SECRET_KEY (64 hex characters or base64 of 32 bytes) or from
   * `<dataDir>/secret.key`, created with mode 0600 on first run. No default key ships.
   * `sealedSecrets` is how many secrets the store already holds: a fresh key could open
   * none of them, so with a missing key file the gateway refuses to start instead of
   * making one (every account would fail to connect, forever, with no clue why).
   */
  static load(params: { dataDir: string; envKey?: string | undefined; sealedSecrets?: number }): SecretBox {
    if (params.envKey) return new SecretBox(parseKey(params.envKey, 'TERN_SECRET_KEY'), 'TERN_SECRET_KEY');
    const file = join(params.dataDir, 'secret.key');
    if (!existsSync(file)) {
      if ((params.sealedSecrets ?? 0) > 0) throw new Error(missingKeyMessage(file, params.sealedSecrets ?? 0));
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    }
    if ((statSync(file).mode & 0o077) !== 0) {
      throw new Error(`${file} is readable by other users; run \`chmod 600 ${file}\`.`);
    }
    return new SecretBox(parseKey(readFileSync(file, 'utf8').trim(), file), file);
  }

  seal(plaintext: string, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  /**
   * A key for one other purpose (signing links, say), derived from this one: every node of a
   * cluster has the same key, so a link one node signed opens on any other, and the derived
   * key reveals nothing of the sealing key.
   */
  derive(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(`tern-derived-key:${purpose}`).digest();
  }

  open(sealed: Buffer, context: string): string {
    if (sealed[0] !== VERSION) throw new Error('Unknown secret format');
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

function missingKeyMessage(file: string, sealedSecrets: number): string {
  return [
    `The key file ${file} is missing, but the store holds ${sealedSecrets} mail password(s) sealed with it.`,
    'A new key could not open them, so the gateway will not start.',
    `Restore secret.key from a backup into ${file} (mode 0600), or set TERN_SECRET_KEY to that key.`,
    'If the key is lost for good, move the database away to start empty: every user then logs in again.',
  ].join('\n');
}

function parseKey(text: string, source: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold a 256-bit key (64 hex characters or base64 of 32 bytes).`);
  return key;
}
