// The harness's self-signed certificate for 127.0.0.1 / localhost: Dovecot offers STARTTLS
// with it on ManageSieve (dovecot-config.ts), and a test that wants a verified TLS link trusts
// it as its CA (MailServers.tls.cert). Made once per data dir with the openssl command line
// (Dovecot's Debian package depends on openssl) and kept, so a restart serves the same one.
import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);
const OPENSSL = '/usr/bin/openssl';

export interface HarnessTls {
  readonly certFile: string;
  readonly keyFile: string;
  /** The certificate's PEM: pass it as `ca` to trust the harness's servers. */
  readonly cert: string;
}

export async function ensureHarnessCert(dir: string): Promise<HarnessTls> {
  const certFile = path.join(dir, 'harness-cert.pem');
  const keyFile = path.join(dir, 'harness-key.pem');
  const exists = await Promise.all([access(certFile), access(keyFile)]).then(
    () => true,
    () => false,
  );
  if (!exists) {
    // EC P-256: made in milliseconds (an RSA key would cost a noticeable part of a second at every fresh start).
    await execFileP(OPENSSL, [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650',
      '-subj', '/CN=Tern test harness', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', keyFile, '-out', certFile,
    ]);
  }
  return { certFile, keyFile, cert: await readFile(certFile, 'utf8') };
}
