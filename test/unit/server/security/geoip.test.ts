import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openCountryLookup } from '../../../../src-server/security/geoip';
import { countryDatabase } from '../../../integration/support/mmdb-writer';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tern-geoip-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a generated country database answers public addresses; private, loopback and unknown ones have no country', async () => {
  const file = join(dir, 'countries.mmdb');
  await writeFile(file, countryDatabase({ '81.2.69.0/24': 'GB', '89.160.20.0/24': 'SE' }));
  const lookup = await openCountryLookup(file);
  expect(lookup.countryOf('81.2.69.160')).toBe('GB');
  expect(lookup.countryOf('::ffff:89.160.20.112')).toBe('SE');
  for (const ip of ['8.8.8.8', '127.0.0.1', '10.0.0.7', '192.168.1.2', '169.254.1.1', '::1', 'fe80::1', '2001:4860::1', 'not an ip']) expect(lookup.countryOf(ip), ip).toBeNull();
});

test('a missing or corrupt file stops the start-up with a message naming the variable', async () => {
  await expect(openCountryLookup(join(dir, 'absent.mmdb'))).rejects.toThrow(/TERN_GEOIP_COUNTRY_DB: .*absent\.mmdb .*no such file/);
  const corrupt = join(dir, 'corrupt.mmdb');
  await writeFile(corrupt, Buffer.from('this is not a MaxMind database'));
  await expect(openCountryLookup(corrupt)).rejects.toThrow(/TERN_GEOIP_COUNTRY_DB: .*corrupt\.mmdb cannot be used/);
});
