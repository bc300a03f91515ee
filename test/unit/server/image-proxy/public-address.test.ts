import { describe, expect, test } from 'vitest';
import { isPublicAddress } from '../../../../src-server/image-proxy/public-address';

describe('isPublicAddress', () => {
  test.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '100.100.100.200', '0.0.0.0', '192.0.2.10', '198.18.0.1', '224.0.0.1', '255.255.255.255',
    '::', '::1', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1', '2001:db8::1', '2001::1', 'fec0::1',
    // IPv6 forms carrying a private IPv4 address
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '::127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::', '2002:c0a8:101::1',
    // not addresses at all
    'localhost', '', '1.2.3', '::ffff:999.0.0.1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:93.184.216.34', '64:ff9b::808:808', '2002:5db8:d822::1'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
