// @vitest-environment happy-dom
/**
 * "Keep recent mail offline": the days this browser keeps are read back as chosen, the first
 * version's "on" ('1') is 30 days, anything else stored is no choice at all, and the engine is
 * asked for exactly the chosen days.
 */
import { afterEach, expect, test } from 'vitest';
import { chooseKeepOffline, keepOfflineChosen, keepOfflineDays, runKeepOffline } from '../../../../src-ui/offline/keep-offline';

afterEach(() => localStorage.clear());

test('the chosen days are read back; the old "on" is 30 days; a stored value out of range or not a number is off', () => {
  expect(keepOfflineDays()).toBeNull();
  chooseKeepOffline(90);
  expect([keepOfflineDays(), keepOfflineChosen()]).toEqual([90, true]);
  chooseKeepOffline(null);
  expect([keepOfflineDays(), keepOfflineChosen(), localStorage.getItem('tern.keepOffline')]).toEqual([null, false, null]);
  localStorage.setItem('tern.keepOffline', '1');
  expect(keepOfflineDays()).toBe(30);
  for (const stored of ['0', '-7', '2.5', '99999', 'all']) {
    localStorage.setItem('tern.keepOffline', stored);
    expect(keepOfflineDays(), stored).toBeNull();
  }
});

test('the engine is asked for the chosen days, and not at all when none are chosen', async () => {
  const asked: { accountIds: readonly string[]; days: number }[] = [];
  const keep = async (params: { accountIds: readonly string[]; days: number }) => {
    asked.push(params);
    return { state: 'done' as const, done: 0, total: 0 };
  };
  await expect(runKeepOffline(keep, ['1'])).resolves.toBeNull();
  chooseKeepOffline(365);
  await runKeepOffline(keep, ['1', '2']);
  expect(asked).toEqual([{ accountIds: ['1', '2'], days: 365 }]);
});
