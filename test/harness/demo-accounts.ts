import type { SeedOwner } from './seed/seed-mailbox';

/** The demo's accounts: two domains, so multi-account and cross-domain mail can be tried. */
export interface DemoAccount extends SeedOwner {
  readonly password: string;
  /** Messages seeded into the account's mailbox. */
  readonly messages: number;
  /**
   * The one other address the account's login may send as: the harness's Postfix delivers it
   * to the account and, on its submission port, refuses any other sender (to try identities,
   * add it under Settings → Email alias; any other alias is refused with the server's reply).
   */
  readonly aliases: readonly string[];
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { name: 'Alice Tern', email: 'alice@tern.test', password: 'Tern-demo-1!', messages: 3000, aliases: ['alice.work@tern.test'] },
  { name: 'Bob Kite', email: 'bob@kite.test', password: 'Kite-demo-2!', messages: 1500, aliases: ['bob.club@kite.test'] },
];

/** The demo's users as the mail servers take them (aliases included). */
export const demoMailUsers = () => DEMO_ACCOUNTS.map(({ email, password, aliases }) => ({ email, password, aliases: [...aliases] }));
