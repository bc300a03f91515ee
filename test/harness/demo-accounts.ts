import type { SeedOwner } from './seed/seed-mailbox';

/** The demo's accounts: two domains, so multi-account and cross-domain mail can be tried. */
export interface DemoAccount extends SeedOwner {
  readonly password: string;
  /** Messages seeded into the account's mailbox. */
  readonly messages: number;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { name: 'Alice Tern', email: 'alice@tern.test', password: 'Tern-demo-1!', messages: 3000 },
  { name: 'Bob Kite', email: 'bob@kite.test', password: 'Kite-demo-2!', messages: 1500 },
];
