/**
 * A saved draft reopened in the composer (MailCommandService.openDraft): everything it
 * holds, under the id its saves and its send use. Pure and without React, so the reading
 * pane can import it without loading the composer.
 */
import type { DraftEdit } from '../../shared/worker-mail-api';
import type { ComposerInitial } from './compose-initial';

export function composerInitialOfDraft(draft: DraftEdit): ComposerInitial {
  return { mode: 'new', ...draft };
}
