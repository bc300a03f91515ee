import { TernError } from '../../shared/errors';
import type { FolderRoles } from '../actions/folder-roles';
import type { MailboxAccess } from '../actions/mailbox-access';
import type { Materializer } from '../mirror/materialize';
import { messageIdsIn } from '../mirror/threading';
import type { DraftParent } from './draft-store';

/** References kept: the thread's root and the latest ones (RFC 5322 §3.6.4 lets the middle go). */
const MAX_REFERENCES = 20;

export interface ParentResolverDeps {
  readonly materializer: Pick<Materializer, 'messageRow'>;
  readonly roles: Pick<FolderRoles, 'byId'>;
  readonly access: Pick<MailboxAccess, 'withFolder'>;
}

/** The References header's ids from a raw header block. */
export function referencesIn(headers: Buffer | undefined): string[] {
  if (!headers) return [];
  const unfolded = headers.toString('latin1').replace(/\r?\n[ \t]+/g, ' ');
  return messageIdsIn(/^references:(.*)$/im.exec(unfolded)?.[1]);
}

/** Root plus the newest ids, without repeats. */
export function trimReferences(ids: readonly string[]): string[] {
  const unique = [...new Set(ids)];
  return unique.length <= MAX_REFERENCES ? unique : [unique[0]!, ...unique.slice(unique.length - (MAX_REFERENCES - 1))];
}

/**
 * A reply's threading headers (RFC 5322 §3.6.4): In-Reply-To is the parent's Message-ID;
 * References are the parent's References (or its In-Reply-To) followed by that id. The
 * parent's References are not mirrored, so they are read from its headers on the server.
 */
export class ParentResolver {
  constructor(private readonly deps: ParentResolverDeps) {}

  /** `parentId` given: ParentMessageNotFound when it is not a message of the account. */
  async resolve(params: { accountId: number; parentId: number | null; fallbackReferences?: readonly string[] }): Promise<DraftParent> {
    const { accountId, parentId } = params;
    if (parentId === null) return { parentId: null, inReplyTo: null, references: trimReferences(params.fallbackReferences ?? []) };
    const row = await this.deps.materializer.messageRow(accountId, parentId);
    if (!row) throw new TernError('ParentMessageNotFound', { detail: { inReplyTo: String(parentId) } });
    const folder = await this.deps.roles.byId(accountId, row.folder_id);
    let ancestors: string[] = [];
    if (folder) {
      ancestors = await this.deps.access
        .withFolder(accountId, folder.path, async (client) => {
          const message = await client.fetchOne(String(row.uid), { uid: true, headers: ['references'] }, { uid: true });
          return message ? referencesIn(message.headers) : [];
        })
        .catch(() => []); // unreadable now: the parent's own ids below still thread the reply
    }
    if (ancestors.length === 0 && row.in_reply_to) ancestors = [row.in_reply_to];
    const own = row.message_id_header;
    return { parentId, inReplyTo: own, references: trimReferences(own ? [...ancestors, own] : ancestors) };
  }
}
