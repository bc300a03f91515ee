import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Where the repository is, seen from the built gateway (dist/server/) or from src-server/. */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const portSchema = z.coerce.number().int().min(1).max(65535);

/** Every setting the gateway reads from its environment (documented in the README). */
const configSchema = z.object({
  TERN_HOST: z.string().min(1).default('127.0.0.1'),
  TERN_PORT: portSchema.default(8080),
  TERN_DATA_DIR: z.string().min(1).default(join(repoRoot, '.tern', 'gateway')),
  TERN_PUBLIC_DIR: z.string().min(1).default(join(repoRoot, 'public')),
  TERN_SECRET_KEY: z.string().min(1).optional(),
  TERN_DATABASE_FILE: z.string().min(1).default('tern.sqlite'),
});

export interface GatewayConfig {
  /** Interface the HTTP server binds. */
  readonly host: string;
  /** TCP port of the HTTP server (0 picks a free one). */
  readonly port: number;
  /** Where the gateway keeps its database and key file. */
  readonly dataDir: string;
  /** The static shell and built bundles (`public/`, with `public/build/` from build.mjs). */
  readonly publicDir: string;
  /** Key for secrets at rest; when unset, `<dataDir>/secret.key` (mode 0600) is used. */
  readonly secretKey: string | undefined;
  /** SQLite file name inside dataDir (`:memory:` for tests). */
  readonly databaseFile: string;
}

/** Parses the environment; a bad value stops the gateway with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid gateway configuration:\n  ${problems.join('\n  ')}`);
  }
  const value = parsed.data;
  return {
    host: value.TERN_HOST,
    port: value.TERN_PORT,
    dataDir: resolve(value.TERN_DATA_DIR),
    publicDir: resolve(value.TERN_PUBLIC_DIR),
    secretKey: value.TERN_SECRET_KEY,
    databaseFile: value.TERN_DATABASE_FILE,
  };
}
