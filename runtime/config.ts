import { randomBytes } from 'node:crypto';

export interface Config {
  port: number;
  databaseUrl: string;
  rbacSecretKey: string;
  production: boolean;
  logLevel: string;
  /** stack traces in error bodies; never in production */
  debug: boolean;
  /** secrets made up at start because the environment had none (development only) */
  generated: string[];
}

/** Reads the environment (table in README.md). Production refuses to start without its secrets. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const generated: string[] = [];
  let rbacSecretKey = env.RBAC_SECRET_KEY ?? '';
  if (!rbacSecretKey) {
    if (production) throw new Error('RBAC_SECRET_KEY is required when NODE_ENV=production');
    rbacSecretKey = randomBytes(24).toString('base64url');
    generated.push('RBAC_SECRET_KEY');
  } else if (production && rbacSecretKey.length < 16) {
    throw new Error('RBAC_SECRET_KEY must be at least 16 characters when NODE_ENV=production');
  }
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  return {
    port,
    databaseUrl: env.DATABASE_URL || 'file:./data/app.db',
    rbacSecretKey,
    production,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    debug: !production && env.DEBUG === 'true',
    generated,
  };
}
