/**
 * Recovery codes: ten random codes of about 79 bits, shown once, stored only as HMAC-SHA256 under
 * a key derived from the gateway's secret key (SecretBox.derive). They are random, not
 * chosen by people, so a slow password hash would add nothing but seconds per login.
 */
import { createHmac, randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
/** 16 characters of a 31-letter alphabet: 16 × log2(31) ≈ 79 bits. */
const CODE_CHARS = 16;
/** No 0/o, 1/l/i: a code copied from paper is read back right. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten fresh codes, grouped in fours with dashes for reading (`abcd-efgh-jkmn-pqrs`). */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: CODE_CHARS }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

/** What a typed code is compared as: case, spaces and dashes do not matter. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, '');
}

/** The stored form: bound to the account, so one account's hash proves nothing for another. */
export function recoveryCodeHash(key: Buffer, accountId: number, code: string): string {
  return createHmac('sha256', key).update(`${accountId}:${normaliseRecoveryCode(code)}`).digest('hex');
}
