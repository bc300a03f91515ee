import { expect, test } from 'vitest';
import { accountRemoved, isAccountRemoved, TernError } from '../../../shared/errors';
import { isNumericOnly, isValidGiftRecipientEmail, isValidGiftRecipientName } from '../../../shared/input-patterns';

test('numeric-only accepts digits only', () => {
  expect(isNumericOnly('0')).toBe(true);
  expect(isNumericOnly('123456')).toBe(true);
  for (const value of ['', '12a', '1.5', '-1', ' 12', '１２']) expect(isNumericOnly(value)).toBe(false);
});

test('gift recipient name and email accept letters only', () => {
  for (const value of ['Alice', 'Zoë', 'Łukasz', 'José']) {
    expect(isValidGiftRecipientName(value)).toBe(true);
    expect(isValidGiftRecipientEmail(value)).toBe(true);
  }
  for (const value of ['', 'Alice Tern', 'R2D2', 'alice@tern.test', "O'Neil"]) {
    expect(isValidGiftRecipientName(value)).toBe(false);
    expect(isValidGiftRecipientEmail(value)).toBe(false);
  }
});

test('the AccountRemoved marker is recognised, survives a structured clone, and is no catalogue error', () => {
  const marker = accountRemoved('17');
  expect(isAccountRemoved(marker)).toBe(true);
  expect(isAccountRemoved(structuredClone(marker))).toBe(true);
  expect(isAccountRemoved({ marker: 'AccountRemoved' })).toBe(false);
  expect(isAccountRemoved(new TernError('InvalidToken'))).toBe(false);
  expect(isAccountRemoved(null)).toBe(false);
});
