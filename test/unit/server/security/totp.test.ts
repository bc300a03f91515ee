import { Secret } from 'otpauth';
import { describe, expect, test } from 'vitest';
import { newRecoveryCodes, normaliseRecoveryCode, recoveryCodeHash } from '../../../../src-server/security/recovery-codes';
import { newTotpSecret, totpCode, totpMatch, totpStep, totpUri, type TotpAlgorithm } from '../../../../src-server/security/totp';

// RFC 6238 Appendix B: the ASCII seeds of each hash, 8 digits, T0 = 0, X = 30.
const SEEDS: Record<TotpAlgorithm, string> = {
  SHA1: '12345678901234567890',
  SHA256: '12345678901234567890123456789012',
  SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
};
const VECTORS: readonly [seconds: number, sha1: string, sha256: string, sha512: string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  test.each(VECTORS)('Appendix B at T = %i s', (seconds, sha1, sha256, sha512) => {
    const atMs = seconds * 1000;
    for (const [algorithm, expected] of [['SHA1', sha1], ['SHA256', sha256], ['SHA512', sha512]] as const) {
      const secret = Secret.fromLatin1(SEEDS[algorithm]);
      expect(totpCode({ secret, atMs, digits: 8, algorithm })).toBe(expected);
      // And the matcher finds each code in its own step.
      expect(totpMatch({ secret, code: expected, atMs, digits: 8, algorithm })).toBe(totpStep(atMs));
    }
  });

  test('a code is accepted one step either side of now, not two', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    expect(totpMatch({ secret, code: totpCode({ secret, atMs: now - 30_000 }), atMs: now })).toBe(step - 1);
    expect(totpMatch({ secret, code: totpCode({ secret, atMs: now + 30_000 }), atMs: now })).toBe(step + 1);
    expect(totpMatch({ secret, code: totpCode({ secret, atMs: now - 60_000 }), atMs: now })).toBeNull();
    expect(totpMatch({ secret, code: totpCode({ secret, atMs: now + 60_000 }), atMs: now })).toBeNull();
  });

  test('only six ASCII digits are compared; spaces are forgiven', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_000_000;
    const code = totpCode({ secret, atMs: now });
    expect(totpMatch({ secret, code: `${code.slice(0, 3)} ${code.slice(3)}`, atMs: now })).toBe(totpStep(now));
    // Fullwidth or Arabic-Indic digits look like digits to \d in some engines; never to us.
    const fullwidth = [...code].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join('');
    expect(totpMatch({ secret, code: fullwidth, atMs: now })).toBeNull();
    expect(totpMatch({ secret, code: `${code}0`, atMs: now })).toBeNull();
    expect(totpMatch({ secret, code: '', atMs: now })).toBeNull();
  });

  test('the key URI names the issuer and the account, and carries the secret', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(totpUri({ secret, issuer: 'Tern Mail', account: 'alice@tern.test' }));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Tern Mail');
    expect(decodeURIComponent(uri.pathname)).toContain('alice@tern.test');
  });
});

describe('recovery codes', () => {
  test('ten distinct codes of sixteen characters from the unambiguous alphabet', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{4}(-[a-hjkmnp-z2-9]{4}){3}$/);
  });

  test('the HMAC is keyed, bound to the account and forgiving of case, spaces and dashes', () => {
    const key = Buffer.alloc(32, 7);
    const [code] = newRecoveryCodes(1) as [string];
    const stored = recoveryCodeHash(key, 1, code);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(normaliseRecoveryCode(code));
    expect(recoveryCodeHash(key, 1, ` ${code.toUpperCase().replaceAll('-', ' ')} `)).toBe(stored);
    expect(recoveryCodeHash(key, 2, code)).not.toBe(stored);
    expect(recoveryCodeHash(Buffer.alloc(32, 8), 1, code)).not.toBe(stored);
  });
});
