import { describe, expect, test } from 'vitest';
import { accountFromLogin, accountInfoKey, primaryAccountId, resetSyncState, toPublicAccount, withHttps } from '../../../../shared/account';
import { avatarHue } from '../../../../shared/avatar-hue';
import { loginResponse } from '../fakes';

const SPEC_FIELDS = [
  'accountId', 'name', 'emailAddress', 'provider', 'organizationUnit', 'label', 'aliases', 'rootFolderId', 'mailProperties', 'cursor',
  'appliedTransactionId', 'contactSyncCursor', 'threadInconsistencyCheckTimestamp', 'contactRankUpdateTimestamp', 'mailApi', 'api',
  'token', 'proxySyncComplete', 'iconColor', 'clientId', 'serverId', 'id', 'pluginMetadata', 'emailTemplateCursor',
  'emailTemplateUpdateTimestamp', 'firstLoginOnTitan', 'clusterRegion', 'clusterBllApi', 'clusterApi', 'purgeTimestamps',
  'webSocketEnabled', 'isHiveUser', 'isEligibleForStorageBasedCCC', 'bundleId', 'siteOrderId',
];

describe('Account from the login response', () => {
  test('has every field of the spec', () => {
    expect(Object.keys(accountFromLogin(loginResponse())).sort()).toEqual([...SPEC_FIELDS].sort());
  });

  test('maps mailId to the ids, latestTxnId to the cursor, baseUrl to the API base', () => {
    const account = accountFromLogin(loginResponse({ mailId: '12', latestTxnId: 99, baseUrl: 'mail.example.com/api/' }));
    expect(account).toMatchObject({ accountId: '12', id: '12', clientId: '12', serverId: '12', cursor: 99, appliedTransactionId: 0 });
    expect(account).toMatchObject({ api: 'https://mail.example.com/api', mailApi: 'https://mail.example.com/api', clusterApi: 'https://mail.example.com' });
  });

  test('prefixes https only when the base has no scheme', () => {
    expect(withHttps('mail.example.com/api')).toBe('https://mail.example.com/api');
    expect(withHttps('http://127.0.0.1:8080/api')).toBe('http://127.0.0.1:8080/api');
    expect(withHttps('https://mail.example.com/api')).toBe('https://mail.example.com/api');
  });

  test('label defaults to the email; folder separator to "/"; template cursor starts at "0"', () => {
    const account = accountFromLogin(loginResponse({ mailProperties: { folderSeparator: '' } }));
    expect(account.label).toBe('ann.lee@example.com');
    expect(account.mailProperties.folderSeparator).toBe('/');
    expect(account.emailTemplateCursor).toBe('0');
    expect(accountFromLogin(loginResponse({ mailProperties: { folderSeparator: '.' } })).mailProperties.folderSeparator).toBe('.');
  });

  test('icon colour is the sum of the email’s character codes mod 360', () => {
    const email = 'ann.lee@example.com';
    const sum = [...email].reduce((total, char) => total + char.charCodeAt(0), 0);
    expect(accountFromLogin(loginResponse({ email })).iconColor).toBe(sum % 360);
    expect(avatarHue('ab')).toBe((97 + 98) % 360);
  });

  test('a cache clear resets what the sync rebuilds and keeps the session', () => {
    const synced = { ...accountFromLogin(loginResponse()), appliedTransactionId: 40, emailTemplateCursor: '17', rootFolderId: 'root' };
    expect(resetSyncState(synced)).toMatchObject({ appliedTransactionId: 0, emailTemplateCursor: '0', rootFolderId: null, token: 'token-7', cursor: 42 });
  });

  test('the public account has no token', () => {
    expect(toPublicAccount(accountFromLogin(loginResponse()))).not.toHaveProperty('token');
  });
});

describe('account rules', () => {
  test('info is stored under the email with dots replaced by hyphens', () => {
    expect(accountInfoKey('ann.lee@mail.example.com')).toBe('ann-lee@mail-example-com');
  });

  test('primary is the smallest numeric id', () => {
    expect(primaryAccountId(['10', '9', '100'])).toBe('9');
    expect(primaryAccountId(['x', '3'])).toBe('3');
    expect(primaryAccountId([])).toBeNull();
  });
});
