/**
 * Rules that run on the mail server (Settings' Filters, Blocklist and allowlist, Auto reply;
 * the toolbar's "Block sender"): each one engine call; refusals become the catalogue's TernError.
 */
import { TernError } from '../../../shared/errors';
import type { ForwardingCheckResult, MailFilter, MailRules, RulesActivity, RulesDoc } from '../../../shared/mail-rules';
import { errorPhrase } from '../../../shared/strings';
import type { WorkerBridge } from '../engine-feeds';
import type { UiEngine } from '../engine-port';
import { asTernError as call, engineService } from './engine-call';

export interface RulesActions {
  loadRules(accountId: string): Promise<RulesDoc>;
  /** Saves the whole rules edited from `baseRevision`; throws the TernError the server or gateway gave (nothing changed then). */
  saveRules(params: { accountId: string; rules: MailRules; baseRevision: number }): Promise<RulesDoc>;
  /** The sender (address or domain) onto the blocked or allowed list, or off both (null). */
  listSender(params: { accountId: string; sender: string; list: 'blocked' | 'allowed' | null }): Promise<RulesDoc>;
  /** Starts a run of a filter over the Inbox's mail (its progress comes to `watchRules`); a refusal is said in a toast. */
  applyFilter(params: { accountId: string; filter: MailFilter }): Promise<void>;
  /** Forwarding in: a test message to the other address, waited for here; throws the TernError when it could not be sent. */
  checkForwarding(params: { accountId: string; address: string }): Promise<ForwardingCheckResult>;
  /** The rules' revision and runs now and at every change on any device; returns the unsubscribe. */
  watchRules(accountId: string, onChange: (activity: RulesActivity) => void): () => void;
  /** The toolbar's "Block sender": blocks it, says so in a toast with Undo, or says why not. */
  blockSender(params: { accountId: string; sender: string }): Promise<void>;
}

export function createRulesActions({ engine, bridge }: { engine: UiEngine; bridge: Pick<WorkerBridge, 'toast'> }): RulesActions {
  const rules = () => engineService(engine, 'rules');
  return {
    loadRules: (accountId) => call(() => rules().get({ accountId })),
    saveRules: (params) => call(() => rules().save(params)),
    listSender: (params) => call(() => rules().listSender(params)),
    checkForwarding: (params) => call(() => rules().checkForwarding(params)),
    async applyFilter({ accountId, filter }) {
      try {
        await call(() => rules().applyFilter({ accountId, filter }));
      } catch (error) {
        bridge.toast({ tone: 'error', message: errorPhrase(TernError.from(error)) });
      }
    },
    watchRules(accountId, onChange) {
      let stopped = false;
      const subscription = call(() => rules().watch({ accountId }, (activity) => !stopped && onChange(activity)));
      subscription.catch(() => undefined); // without the engine's rules the page still loads and saves; it just hears nothing
      return () => {
        stopped = true;
        void subscription.then(({ subscriptionId }) => rules().unwatch({ subscriptionId })).catch(() => undefined);
      };
    },
    async blockSender({ accountId, sender }) {
      try {
        const doc = await call(() => rules().listSender({ accountId, sender, list: 'blocked' }));
        bridge.toast({
          tone: 'info',
          message: { id: doc.rules.blockAction === 'discard' ? 'rules.senderBlockedDiscard' : 'rules.senderBlocked', values: { sender } },
          action: {
            label: { id: 'app.undo' },
            run: () =>
              void call(() => rules().listSender({ accountId, sender, list: null })).then(
                () => bridge.toast({ tone: 'info', message: { id: 'rules.senderUnblocked', values: { sender } } }),
                (error: unknown) => bridge.toast({ tone: 'error', message: errorPhrase(TernError.from(error)) }),
              ),
          },
        });
      } catch (error) {
        bridge.toast({ tone: 'error', message: errorPhrase(TernError.from(error)) });
      }
    },
  };
}
