import type { MailServers } from './mail-servers';

/**
 * The gateway's own mail (codes to alternate addresses, issue 19) in the demo and the e2e run:
 * through the harness's Postfix on its plain SMTP port, which delivers to the local test
 * domains without a login, as an operator's relay would. From an address of a demo domain.
 */
export function systemMailEnv(servers: Pick<MailServers, 'host' | 'ports'>): Record<string, string> {
  return {
    TERN_SYSTEM_SMTP_HOST: servers.host,
    TERN_SYSTEM_SMTP_PORT: String(servers.ports.smtp),
    TERN_SYSTEM_SMTP_SECURITY: 'none',
    TERN_SYSTEM_MAIL_FROM: 'Tern Mail <security@tern.test>',
  };
}
