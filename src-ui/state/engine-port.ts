/**
 * What the UI needs from the engine, in one interface (DESIGN §1: the UI renders and
 * dispatches). `engineFromWorker` adapts the comlink remote of shared/worker-api.ts to it;
 * tests hand the app an in-memory implementation instead.
 *
 * Only this module and worker-bridge.ts know the engine exists; components call the
 * command functions of mail-actions.ts (STYLE item 13).
 */
import { proxy, type Remote } from 'comlink';
import type { PublicAccount, AccountInfo } from '../../shared/account';
import type { LoginChallengeStep } from '../../shared/login-steps';
import type { WorkerApi } from '../../shared/worker-api';
import type { MailCommandService, MailQueryService } from '../../shared/worker-mail-api';

/** Credentials of one login attempt; the optional fields answer a challenge of the gateway. */
export interface AddAccountParams {
  readonly email: string;
  readonly password: string;
  /** The authenticator code (step AUTHENTICATOR, input `auth_code`). */
  readonly authCode?: string;
  /** A recovery code (step RECOVERY_CODE, input `recovery_code`). */
  readonly recoveryCode?: string;
  /** The confirmed alternate email (step ALTERNATE_EMAIL). */
  readonly alternateEmail?: string;
}

/** Logged in, or the gateway wants another step before it says so. */
export type AddAccountResult =
  | { readonly kind: 'added'; readonly account: PublicAccount }
  | { readonly kind: 'challenge'; readonly step: LoginChallengeStep };

/**
 * The account part of the engine as the UI uses it. The worker's AccountService (add,
 * remove, list) is being written at the same time; until it lands in shared/worker-api.ts
 * this is the shape the UI calls, and `engineFromWorker` the only place that maps it.
 */
export interface AccountPort {
  /** Logs in through the gateway and stores the account; other accounts stay logged in. */
  add(params: AddAccountParams): Promise<AddAccountResult>;
  /** Logs one account out (ends its gateway session, drops its local data). */
  remove(params: { readonly accountId: string }): Promise<void>;
  /** Every stored account, primary first. */
  list(): Promise<readonly PublicAccount[]>;
  /** Pushes the account list whenever it changes in any tab. */
  watch(onChange: (accounts: readonly PublicAccount[]) => void): Promise<{ readonly subscriptionId: string }>;
  /** Partner and billing info stored beside an account (spec §3), for the partner theme. */
  info(params: { readonly accountId: string }): Promise<AccountInfo>;
}

/** The engine as the UI sees it. */
export interface UiEngine {
  /** The engine's app version, from the handshake. */
  readonly version: string;
  readonly accounts: AccountPort;
  readonly mail: MailQueryService;
  readonly commands: MailCommandService;
}

/**
 * The services the UI expects on the worker's remote beyond `session`. They are not part
 * of WorkerApi yet; once they are, this type collapses into WorkerApi itself.
 */
interface ExpectedWorkerServices {
  readonly accounts: {
    add(params: AddAccountParams): Promise<AddAccountResult | PublicAccount>;
    remove(params: { accountId: string }): Promise<void>;
    list(): Promise<readonly PublicAccount[]>;
    watch(onChange: (accounts: readonly PublicAccount[]) => void): Promise<{ subscriptionId: string }>;
    info(params: { accountId: string }): Promise<AccountInfo>;
  };
  readonly mail: MailQueryService;
  readonly commands: MailCommandService;
}

/** The engine may answer `add` with the account itself (no challenge possible) or with a result. */
function toAddResult(value: AddAccountResult | PublicAccount): AddAccountResult {
  return 'kind' in value ? value : { kind: 'added', account: value };
}

/**
 * Adapts the comlink remote: callbacks cross the boundary as proxies (comlink cannot
 * clone a function), everything else passes through.
 */
export function engineFromWorker(remote: Remote<WorkerApi>, version: string): UiEngine {
  const worker = remote as unknown as Remote<WorkerApi & ExpectedWorkerServices>;
  return {
    version,
    accounts: {
      add: async (params) => toAddResult((await worker.accounts.add(params)) as AddAccountResult | PublicAccount),
      remove: (params) => worker.accounts.remove(params),
      list: () => worker.accounts.list() as Promise<readonly PublicAccount[]>,
      watch: (onChange) => worker.accounts.watch(proxy(onChange)),
      info: (params) => worker.accounts.info(params) as Promise<AccountInfo>,
    },
    mail: {
      watchThreadList: (params, onPatch) => worker.mail.watchThreadList(params, proxy(onPatch)),
      moveWindow: (params) => worker.mail.moveWindow(params),
      unwatch: (params) => worker.mail.unwatch(params),
      getThread: (params) => worker.mail.getThread(params),
      getBody: (params) => worker.mail.getBody(params),
      listFolders: (params) => worker.mail.listFolders(params),
      counts: (params) => worker.mail.counts(params),
      suggestAddresses: (params) => worker.mail.suggestAddresses(params),
    },
    commands: {
      run: (params) => worker.commands.run(params),
      saveDraft: (params) => worker.commands.saveDraft(params),
      send: (params) => worker.commands.send(params),
      undoSend: (params) => worker.commands.undoSend(params),
      uploadAttachment: (params, onProgress) => worker.commands.uploadAttachment(params, proxy(onProgress)),
      watchCommands: (onStatus) => worker.commands.watchCommands(proxy(onStatus)),
    },
  };
}
