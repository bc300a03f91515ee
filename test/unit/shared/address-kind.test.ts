import { expect, test } from 'vitest';
import { isLikelyNonHumanAddress } from '../../../shared/address-kind';

test.each([
  'noreply@github.com',
  'no-reply@accounts.google.com',
  'do-not-reply@bank.example',
  'donotreply@shop.example',
  'bounces+12345@mail.example',
  'bounce@lists.example',
  'notifications@github.com',
  'notify@service.example',
  'support@vendor.example',
  'alerts@monitoring.example',
  'alert2@monitoring.example',
  'news@paper.example',
  'newsletter@shop.example',
  'info@company.example',
  'automated@ci.example',
  'list@lists.debian.example',
  'dev-list@project.example',
  'distribute@corp.example',
  'catch-all@corp.example',
  'catchall@corp.example',
  'Info@Company.Example',
  `${'a'.repeat(60)}@x.example`, // 70 characters
])('%s is likely not a person', (email) => {
  expect(isLikelyNonHumanAddress(email)).toBe(true);
});

test.each([
  'alice@tern.test',
  'justine@example.com', // "info", "news", "list" inside a name are not role words
  'newsome@example.com',
  'kristina@example.com',
  'listening.post@example.com',
  'supporter.jane@example.com',
  `${'a'.repeat(54)}@x.example`, // 64 characters: the limit itself is allowed
])('%s may be a person', (email) => {
  expect(isLikelyNonHumanAddress(email)).toBe(false);
});
