// The auto-clean rule's checks (shared/auto-clean.ts), the same on the gateway and in the form:
// senders as addresses or domains, each bad field named once, and what counts as a rule that
// would touch everything.
import { describe, expect, test } from 'vitest';
import { AUTO_CLEAN_LIMITS, normalSender, ruleProblems, senderMatches, touchesEverything, type AutoCleanInput } from '../../../shared/auto-clean';

const RULE: AutoCleanInput = { name: '', sender: '', newsletters: true, folderId: null, ageDays: 30, action: 'trash', keepNewest: 1, enabled: false };

describe('senders', () => {
  test('an address or a domain, lower case, a leading @ dropped; anything else refused', () => {
    expect(normalSender(' News@Shop.Example ')).toBe('news@shop.example');
    expect(normalSender('@shop.example')).toBe('shop.example');
    expect(normalSender('mail.shop.example')).toBe('mail.shop.example');
    for (const bad of ['shop', 'not a sender', 'a@b', 'x@shop.example, y@shop.example', '"x"@shop.example', 'news@', `${'a'.repeat(250)}.example`]) expect(normalSender(bad), bad).toBeNull();
  });

  test('a domain matches its subdomains but not a look-alike; an address only itself', () => {
    expect(senderMatches('shop.example', 'news@shop.example')).toBe(true);
    expect(senderMatches('shop.example', 'news@mail.shop.example')).toBe(true);
    expect(senderMatches('shop.example', 'news@myshop.example')).toBe(false);
    expect(senderMatches('shop.example', 'news@shop.example.net')).toBe(false);
    expect(senderMatches('news@shop.example', 'NEWS@shop.example')).toBe(true);
    expect(senderMatches('news@shop.example', 'other@shop.example')).toBe(false);
  });
});

describe('rule problems', () => {
  test('a good rule has none; each bad field is named once with its sentence', () => {
    expect(ruleProblems(RULE)).toEqual([]);
    expect(ruleProblems({ ...RULE, name: 'x'.repeat(81), sender: 'nope', ageDays: 0, keepNewest: 1.5 }).map((problem) => problem.field)).toEqual(['name', 'sender', 'ageDays', 'keepNewest']);
    expect(ruleProblems({ ...RULE, ageDays: AUTO_CLEAN_LIMITS.maxAgeDays + 1 })[0]!.message).toBe('Enter a whole number of days from 1 to 3650.');
    expect(ruleProblems({ ...RULE, ageDays: Number.NaN }).map((problem) => problem.field)).toEqual(['ageDays']);
    expect(ruleProblems({ ...RULE, keepNewest: -1 }).map((problem) => problem.field)).toEqual(['keepNewest']);
    expect(ruleProblems({ ...RULE, keepNewest: 0, ageDays: 1 })).toEqual([]);
  });

  test('touching everything: no sender and no newsletter condition, over the threshold, or the whole folder', () => {
    expect(touchesEverything({ sender: '', newsletters: false }, null)).toBe(true);
    expect(touchesEverything({ sender: '', newsletters: true }, null)).toBe(false);
    expect(touchesEverything({ sender: 'shop.example', newsletters: false }, { count: 3, folderTotal: 10 })).toBe(false);
    expect(touchesEverything({ sender: 'shop.example', newsletters: false }, { count: 10, folderTotal: 10 })).toBe(true);
    expect(touchesEverything({ sender: '', newsletters: true }, { count: AUTO_CLEAN_LIMITS.confirmOver + 1, folderTotal: 100_000 })).toBe(true);
    expect(touchesEverything({ sender: '', newsletters: true }, { count: 0, folderTotal: 0 })).toBe(false);
  });
});
