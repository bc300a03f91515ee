// Loopback port helpers for the mail-server harness.
//
// The harness binds everything to 127.0.0.1 only, so these helpers probe that
// address (not 0.0.0.0): a service on another interface cannot collide with us,
// and probing the wildcard address would give false alarms.
import net from 'node:net';

const LOOPBACK = '127.0.0.1';

/** Listen on 127.0.0.1:port, then close again. Resolves with the bound port. */
function bindOnce(port: number): Promise<{ server: net.Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref(); // never keep the process alive because of a probe
    server.once('error', reject);
    // exclusive: true so a cluster primary can't share the handle with us.
    server.listen({ host: LOOPBACK, port, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error(`Unexpected listen address for port ${port}`));
        return;
      }
      resolve({ server, port: address.port });
    });
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Fail fast, with a message a human can act on, when a port the harness wants
 * is taken. Dovecot/Postfix would otherwise only log the bind error to their
 * own log files and the harness would time out waiting for a greeting.
 */
export async function assertPortFree(port: number, name: string): Promise<void> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`Invalid ${name} port ${String(port)}: must be an integer between 1 and 65535.`);
  }
  try {
    const { server } = await bindOnce(port);
    await close(server);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new Error(
        `Port ${port} (${name}) is already in use on ${LOOPBACK}. Stop whatever uses it ` +
          `(e.g. \`ss -ltnp 'sport = :${port}'\`) or choose other ports ` +
          `(see TERN_IMAP_PORT / TERN_SMTP_PORT / TERN_LMTP_PORT / TERN_SIEVE_PORT in the README).`,
      );
    }
    if (code === 'EACCES') {
      throw new Error(`Port ${port} (${name}) cannot be bound on ${LOOPBACK}: permission denied.`);
    }
    throw err;
  }
}

/**
 * n distinct free loopback ports, chosen by the kernel (bind to port 0).
 * All n sockets are held open at the same time so the kernel cannot hand out
 * the same port twice; they are released just before returning, so there is a
 * small window in which another process could grab one (assertPortFree runs
 * again right before the servers start to catch that).
 */
export async function findFreePorts(n: number): Promise<number[]> {
  if (!Number.isInteger(n) || n < 0) throw new Error(`findFreePorts: invalid count ${String(n)}`);
  const held: net.Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < n; i++) {
      const { server, port } = await bindOnce(0);
      held.push(server);
      ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(held.map(close));
  }
}
