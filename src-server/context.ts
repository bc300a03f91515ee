import { AccountStore } from './accounts/account-store';
import { SessionStore } from './accounts/session-store';
import type { GatewayConfig } from './config';
import { SecretBox } from './crypto/secret-box';
import { PushHub } from './push/push-hub';
import { openDatabase, type Db } from './store/database';
import { TransactionLog } from './store/transaction-log';

/** The gateway's services, built once and passed to every route module (no globals). */
export interface GatewayContext {
  readonly config: GatewayConfig;
  readonly db: Db;
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly txlog: TransactionLog;
  readonly push: PushHub;
}

export function createContext(config: GatewayConfig): GatewayContext {
  const db = openDatabase(config.dataDir, config.databaseFile);
  const secrets = SecretBox.load({ dataDir: config.dataDir, envKey: config.secretKey });
  return {
    config,
    db,
    accounts: new AccountStore(db, secrets),
    sessions: new SessionStore(db),
    txlog: new TransactionLog(db),
    push: new PushHub(),
  };
}
