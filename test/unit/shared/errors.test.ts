import { describe, expect, test } from 'vitest';
import { ERROR_CATALOGUE, TernError, isErrorName } from '../../../shared/errors';

describe('error catalogue', () => {
  test('carries the statuses and wording the spec gives', () => {
    expect(ERROR_CATALOGUE.AuthenticationError).toEqual({ status: 401, description: 'Incorrect Email or Password' });
    expect(ERROR_CATALOGUE.ImapHostNotFound.status).toBe(500);
    expect(ERROR_CATALOGUE.ImapHostNotFound.description).toBe("Sorry, we currently don't support your email service provider");
    expect(ERROR_CATALOGUE.NoSuchImapProvider).toEqual({ status: 404, description: 'Invalid IMAP Host' });
    expect(ERROR_CATALOGUE.FolderAlreadyExist.status).toBe(403);
    expect(ERROR_CATALOGUE.PreviousImportRequestRunning.status).toBe(425);
    expect(ERROR_CATALOGUE.ServiceNotFound.status).toBeNull();
  });

  test('every entry has a sentence to show', () => {
    for (const [name, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(entry.description.length, name).toBeGreaterThan(5);
    }
  });

  test('an error round-trips through its reply body', () => {
    const original = new TernError('FolderNotFound', { detail: { folderId: 7 }, requestId: 'w_1' });
    const reply = JSON.parse(JSON.stringify(original.toReply()));
    expect(reply).toEqual({ error: 'FolderNotFound', description: 'The folder could not be found.', requestId: 'w_1', detail: { folderId: 7 } });
    const rebuilt = TernError.from(reply);
    expect(rebuilt).toBeInstanceOf(TernError);
    expect(rebuilt.name).toBe('FolderNotFound');
    expect(rebuilt.status).toBe(404);
    expect(rebuilt.detail).toEqual({ folderId: 7 });
  });

  test('an unknown name never leaks its text', () => {
    const rebuilt = TernError.from({ error: 'SegFault', description: 'at /srv/app.js:12' });
    expect(rebuilt.name).toBe('InternalServerError');
    expect(rebuilt.message).not.toContain('/srv');
    expect(isErrorName('SegFault')).toBe(false);
  });
});
