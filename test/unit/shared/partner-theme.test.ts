import { expect, test } from 'vitest';
import { partnerThemeClass, partnerThemeOf } from '../../../shared/partner-theme';
import { avatarHue } from '../../../shared/avatar-hue';

test('a partner company naming wordpress, flock or titan picks the theme, in any case', () => {
  expect(partnerThemeOf('WordPress.com VIP')).toBe('wordpress');
  expect(partnerThemeOf('Flock FZ LLC')).toBe('flock');
  expect(partnerThemeOf('titan mail')).toBe('titan');
  expect(partnerThemeOf('Acme Hosting')).toBeNull();
  expect(partnerThemeOf(null)).toBeNull();
  expect(partnerThemeClass('titan')).toBe('theme-partner-titan');
});

test('avatar hue: the sum of the character codes modulo 360', () => {
  expect(avatarHue('a')).toBe(97);
  expect(avatarHue('alice@tern.test')).toBe([...'alice@tern.test'].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 360);
});
