import { describe, expect, test } from 'vitest';
import { addChips, chipFromAddress, chipsToAddresses, expandChip, INVALID_ADDRESS_MESSAGE, parseAddress, parseRecipients } from '../../../../src-ui/composer/recipients';

describe('chip validation (spec §5 email rule)', () => {
  test.each([
    ['ann@example.com', true],
    ['  Ann.Lee@Example.COM ', true],
    ['ann+news@mail.example.org', true],
    ['ann@example', false],
    ['ann..lee@example.com', false],
    ['.ann@example.com', false],
    ['ann.@example.com', false],
    ['ann@exa_mple.com', false],
    ['ann lee@example.com', false],
    ['ann@-example.com', false],
    ['a(nn)@example.com', false],
    ['"ann"@example.com', false],
    ['ann@@example.com', false],
    ['', false],
  ])('%j is valid: %s', (email, valid) => {
    expect(chipFromAddress({ name: '', email }).valid).toBe(valid);
  });

  test('a valid chip is normalised (trimmed, lowercased); an invalid one keeps what was typed', () => {
    expect(chipFromAddress({ name: ' Ann ', email: ' Ann@Example.COM ' })).toMatchObject({ name: 'Ann', email: 'ann@example.com', valid: true });
    expect(chipFromAddress({ name: '', email: 'Ann@Example' })).toMatchObject({ email: 'Ann@Example', valid: false });
  });

  test('the message is the catalogue entry for InvalidMail', () => {
    expect(INVALID_ADDRESS_MESSAGE).toBe('This email address is not valid.');
  });
});

describe('parsing typed and pasted text', () => {
  test('reads names in angle-bracket form, quoted names with commas, and bare addresses', () => {
    const chips = parseRecipients('Ann Lee <ann@example.com>, "Lee, Bob" <bob@example.com>; carol@example.com\n<dan@example.com>');
    expect(chips.map((chip) => [chip.name, chip.email, chip.valid])).toEqual([
      ['Ann Lee', 'ann@example.com', true],
      ['Lee, Bob', 'bob@example.com', true],
      ['', 'carol@example.com', true],
      ['', 'dan@example.com', true],
    ]);
  });

  test('parseAddress strips mailto:', () => {
    expect(parseAddress('mailto:ann@example.com')).toEqual({ name: '', email: 'ann@example.com' });
  });

  test('addChips skips equivalent addresses (case and +suffix)', () => {
    const chips = addChips(parseRecipients('ann@example.com'), parseRecipients('ANN+work@example.com, bob@example.com'));
    expect(chips.map((chip) => chip.email)).toEqual(['ann@example.com', 'bob@example.com']);
  });

  test('a draft carries every chip, an invalid one as typed', () => {
    // An invalid chip is kept in the draft as typed (the engine holds it back from the gateway), so a reload keeps it.
    expect(chipsToAddresses(parseRecipients('ann@example.com, nope'))).toEqual([
      { name: '', email: 'ann@example.com' },
      { name: '', email: 'nope' },
    ]);
  });
});

describe('a contact list’s chip', () => {
  const list = chipFromAddress({ name: 'Crew', email: 'list:crew-0001', members: [{ name: 'Bo', email: 'bo@kite.test' }, { name: 'Al', email: 'Al@Kite.test' }] });

  test('stands for its members where it is, each address once (by the equivalence)', () => {
    expect(list).toMatchObject({ name: 'Crew', email: 'list:crew-0001', valid: true });
    const chips = [chipFromAddress({ name: '', email: 'al+x@kite.test' }), list, chipFromAddress({ name: '', email: 'zed@kite.test' })];
    expect(chipsToAddresses(chips).map((address) => address.email)).toEqual(['al+x@kite.test', 'bo@kite.test', 'zed@kite.test']);
  });

  test('opens into its members’ chips, normalised as typed ones are', () => {
    expect(expandChip(list).map((chip) => [chip.name, chip.email, chip.valid])).toEqual([
      ['Bo', 'bo@kite.test', true],
      ['Al', 'al@kite.test', true],
    ]);
  });
});
