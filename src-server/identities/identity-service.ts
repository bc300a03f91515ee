import { TernError } from '../../shared/errors';
import {
  MAX_IDENTITIES,
  MAX_SIGNATURE_CHARS,
  OWN_IDENTITY_ID,
  isAlias,
  ownIdentity,
  type IdentitiesDoc,
  type Identity,
  type IdentityInput,
} from '../../shared/identities';
import type { AccountStore } from '../accounts/account-store';
import type { PlanService, TxnAnnouncer } from '../plans/plan-service';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import { IdentityStore } from './identity-store';

const badField = (path: string, message: string) => new TernError('InvalidParameter', { detail: [{ path, message }] });

/**
 * The addresses each account sends from (issue 14). The own address is always listed; an
 * alias needs the plan's `emailAlias` (to be created, edited or sent from — a lapsed plan
 * keeps the rows, nothing is deleted). Whether the mail server lets the account send as an
 * alias is the server's to say at send time (SendFailed with its reply). Every change is one
 * transaction that writes an 'identities' entry to the account's log, so every device gets
 * the whole list through delta.
 */
export class IdentityService {
  private readonly rows: IdentityStore;

  constructor(
    private readonly deps: {
      store: SqlStore;
      txlog: Pick<TransactionLog, 'append'>;
      push: TxnAnnouncer;
      plans: Pick<PlanService, 'require'>;
      accounts: Pick<AccountStore, 'get'>;
      now?: () => number;
      /** After each change (an alias added, edited or removed): the rules' auto replies answer every address. */
      onChange?: (accountId: number) => void;
    },
  ) {
    this.rows = new IdentityStore(deps.store);
  }

  /** The account's identities, own one first, exactly one the default. */
  async doc(accountId: number): Promise<IdentitiesDoc> {
    const email = await this.accountEmail(accountId);
    const [stored, revision] = await Promise.all([this.rows.list(accountId), this.rows.revision(accountId)]);
    return { revision, identities: complete(stored, email) };
  }

  /**
   * Creates or replaces an identity under the device's id. The own identity keeps the
   * account's address; an address is one identity only; an alias asks the plan.
   */
  async put(accountId: number, id: string, input: IdentityInput): Promise<IdentitiesDoc> {
    const email = await this.accountEmail(accountId);
    if (input.signatureHtml.length > MAX_SIGNATURE_CHARS) {
      throw new TernError('SignatureTooLarge', { detail: { limit: MAX_SIGNATURE_CHARS, length: input.signatureHtml.length, identity: id } });
    }
    const own = id === OWN_IDENTITY_ID;
    if (own && isAlias(input, email)) throw badField('email', 'The identity of your own address keeps that address.');
    if (!own && !isAlias(input, email)) throw badField('email', 'This is your own address: edit its identity instead.');
    if (!own) await this.deps.plans.require(accountId, 'emailAlias');
    await this.change(accountId, async (at) => {
      const stored = await this.rows.list(accountId);
      if (stored.some((row) => row.id !== id && row.email === input.email)) throw badField('email', 'This address is already one of your identities.');
      const isNew = !stored.some((row) => row.id === id);
      const count = complete(stored, email).length;
      if (isNew && !own && count >= MAX_IDENTITIES) throw badField('id', `At most ${MAX_IDENTITIES} identities per account.`);
      await this.rows.put(accountId, id, input, at);
      if (input.isDefault) await this.rows.clearDefaultExcept(accountId, id);
    });
    return this.doc(accountId);
  }

  /** Removes an alias (its default passes to the own identity); the own identity goes back to its defaults. */
  async delete(accountId: number, id: string): Promise<IdentitiesDoc> {
    await this.accountEmail(accountId);
    await this.change(accountId, async () => {
      if (!(await this.rows.delete(accountId, id))) throw new TernError('InvalidOperation', { detail: { identity: id } });
    });
    return this.doc(accountId);
  }

  /**
   * The identity mail from `email` goes out under, for the send path: null when the address
   * is none of the account's. Sending from an alias asks the plan (FeatureNotInPlan).
   */
  async forSending(accountId: number, email: string): Promise<Identity | null> {
    const accountEmail = await this.accountEmail(accountId);
    const identity = complete(await this.rows.list(accountId), accountEmail).find((candidate) => candidate.email === email.toLowerCase());
    if (identity && isAlias(identity, accountEmail)) await this.deps.plans.require(accountId, 'emailAlias');
    return identity ?? null;
  }

  private async accountEmail(accountId: number): Promise<string> {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound');
    return account.email.toLowerCase();
  }

  /** One change: the log entry first (it holds the account's row on PostgreSQL, so changes take turns), then the rows, then the revision. */
  private async change(accountId: number, body: (at: number) => Promise<void>): Promise<void> {
    const { store, txlog, push } = this.deps;
    const at = (this.deps.now ?? Date.now)();
    const latest = await store.transaction(async () => {
      const latest = await txlog.append(accountId, [{ object: 'identities', objectId: accountId }]);
      await body(at);
      await this.rows.setRevision(accountId, latest);
      return latest;
    });
    push.announce(accountId, latest);
    this.deps.onChange?.(accountId);
  }
}

/** The stored rows made whole: the own identity first (listed before it is edited), one default. */
function complete(stored: readonly Identity[], accountEmail: string): Identity[] {
  const ownRow = stored.find((row) => row.id === OWN_IDENTITY_ID);
  const aliases = stored.filter((row) => row.id !== OWN_IDENTITY_ID);
  const own = ownRow ?? ownIdentity(accountEmail);
  const defaultId = stored.find((row) => row.isDefault)?.id ?? OWN_IDENTITY_ID;
  return [own, ...aliases].map((identity) => ({ ...identity, isDefault: identity.id === defaultId }));
}
