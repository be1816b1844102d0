import { randomBytes } from 'node:crypto';
import { dialectOf, maskedUrl } from './db/database.js';

export interface Config {
  port: number;
  /**
   * the interface the server listens on (HOST): in production every interface (0.0.0.0, behind its proxy or load
   * balancer); otherwise this machine only (127.0.0.1), so that a development server — Vite's middleware, generated
   * secrets, debug error bodies — is not open to the network it happens to be on (F16)
   */
  host: string;
  databaseUrl: string;
  /** a PostgreSQL read replica (DATABASE_READ_URL): anonymous GETs read there; writes and everything else use DATABASE_URL */
  databaseReadUrl?: string;
  rbacSecretKey: string;
  production: boolean;
  logLevel: string;
  /** stack traces in error bodies; never in production */
  debug: boolean;
  /** secrets made up at start because the environment had none (development only) */
  generated: string[];
  /** signs access tokens (HS256) */
  rbacJwtSecret: string;
  /** subjects signed in with one of these emails may do everything */
  adminEmails: string[];
  /**
   * routine events mailed to the admins (order status changes) are collected into one digest per admin address, sent
   * this many minutes after the first event it holds (ADMIN_DIGEST_MINUTES, default 10)
   */
  adminDigestMinutes: number;
  smtpUrl?: string;
  /** From: of outgoing email */
  mailFrom: string;
  telegramBotToken?: string;
  redisUrl?: string;
  /** put before every Redis key and channel (REDIS_PREFIX): deployments sharing one Redis keep apart */
  redisPrefix: string;
  /** the storefront's public address, for links in emails */
  publicUrl: string;
  /** take the client address from X-Forwarded-For (behind a proxy you run) */
  trustProxy: boolean;
  /** origins of storefronts on other hosts that may call the API with credentials (CORS_ORIGINS) */
  corsOrigins: string[];
  /** the product (site) name the spec's `{product}` variant names hold, e.g. 'content-acme-description' (PRODUCT_NAME) */
  productName?: string;
  /**
   * how long an idle keep-alive connection stays open (KEEP_ALIVE_TIMEOUT_MS, default 65 s): longer than a load
   * balancer keeps its idle connections to the server (60 s on the common ones), so that the server never closes one
   * the balancer is about to reuse (Node's 5 s default answered such requests with a reset: 502s)
   */
  keepAliveTimeoutMs: number;
  /** how long a request's headers may take to arrive (HEADERS_TIMEOUT_MS, default the keep-alive timeout and 1 s) */
  headersTimeoutMs: number;
}

/** a load balancer's idle timeout is commonly 60 s: the server keeps idle connections longer than that */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 65_000;

function secret(env: NodeJS.ProcessEnv, name: string, production: boolean, generated: string[]): string {
  const value = env[name] ?? '';
  if (!value) {
    if (production) throw new Error(`${name} is required when NODE_ENV=production`);
    generated.push(name);
    return randomBytes(24).toString('base64url');
  }
  if (production && value.length < 16) throw new Error(`${name} must be at least 16 characters when NODE_ENV=production`);
  return value;
}

/**
 * A url setting: unset or empty is undefined; one that does not parse, or has another protocol or no host, stops the
 * start naming the setting (its credentials masked)
 */
function urlSetting(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!parsed || !protocols.includes(parsed.protocol) || !parsed.hostname) {
    throw new Error(`${name} must be a ${protocols.map((p) => `${p}//`).join(' or ')} url, got '${maskedUrl(raw)}'`);
  }
  return raw;
}

/** REDIS_PREFIX: letters, digits and `-_.:`; a channel's database number is no separation (pub/sub ignores it) */
function redisPrefixOf(raw: string | undefined): string {
  if (!raw) return '';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(raw)) throw new Error(`REDIS_PREFIX must be 1 to 64 letters, digits or -_.:, got '${raw.slice(0, 80)}'`);
  return raw.endsWith(':') ? raw : `${raw}:`;
}

/**
 * The settings read where they are used (the pool, the shutdown, SQLite's lock wait, how the web apps are served,
 * logging, proxies): each is checked here, so that a wrong value stops the start naming the setting and what it
 * takes, instead of being taken as NaN, as a default, or failing later without a name.
 */
function checkSettings(env: NodeJS.ProcessEnv) {
  const whole = (name: string, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  };
  const oneOf = (name: string, values: string[]) => {
    const raw = env[name];
    if (raw === undefined || raw === '' || values.includes(raw)) return;
    throw new Error(`${name} must be one of ${values.join(', ')}, got '${raw}'`);
  };
  const url = (name: string, protocols: string[]) => void urlSetting(env, name, protocols);
  whole('DATABASE_POOL_SIZE', 1, 1000);
  whole('KEEP_ALIVE_TIMEOUT_MS', 1000, 3_600_000);
  whole('HEADERS_TIMEOUT_MS', 1000, 3_600_000);
  whole('SHUTDOWN_GRACE_MS', 0, 3_600_000);
  whole('SQLITE_BUSY_TIMEOUT_MS', 0, 3_600_000);
  whole('ADMIN_DIGEST_MINUTES', 1, 1440);
  oneOf('WEB', ['off', 'built', 'vite']);
  oneOf('TRUST_PROXY', ['true', 'false']);
  oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
  oneOf('AGENT_SCHEDULER', ['on', 'off']);
  url('PUBLIC_URL', ['http:', 'https:']);
  url('SMTP_URL', ['smtp:', 'smtps:']);
  url('TELEGRAM_API_URL', ['http:', 'https:']);
}

/** Reads the environment (table in README.md). Production refuses to start without its secrets. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  checkSettings(env);
  const generated: string[] = [];
  const rbacSecretKey = secret(env, 'RBAC_SECRET_KEY', production, generated);
  const rbacJwtSecret = secret(env, 'RBAC_JWT_SECRET', production, generated);
  const productName = env.PRODUCT_NAME?.trim().toLowerCase() || undefined;
  if (productName && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(productName)) throw new Error(`PRODUCT_NAME must be lowercase letters, digits and hyphens (it is part of variant names), got '${env.PRODUCT_NAME}'`);
  // an empty PORT= (an env file's blank line) is the default, as for every other setting
  const port = Number(env.PORT || 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  const keepAliveTimeoutMs = Number(env.KEEP_ALIVE_TIMEOUT_MS || DEFAULT_KEEP_ALIVE_TIMEOUT_MS);
  const headersTimeoutMs = Number(env.HEADERS_TIMEOUT_MS || keepAliveTimeoutMs + 1000);
  // as load balancers' guides ask of Node: headers may take longer than an idle connection is kept, never less
  if (headersTimeoutMs <= keepAliveTimeoutMs) throw new Error(`HEADERS_TIMEOUT_MS must be longer than KEEP_ALIVE_TIMEOUT_MS (${keepAliveTimeoutMs}), got '${env.HEADERS_TIMEOUT_MS}'`);
  const databaseUrl = env.DATABASE_URL || 'file:./data/app.db';
  dialectOf(databaseUrl); // refused before anything starts: a bare word is no database
  return {
    port,
    host: env.HOST || (production ? '0.0.0.0' : '127.0.0.1'),
    databaseUrl,
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
    rbacSecretKey,
    production,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    debug: !production && env.DEBUG === 'true',
    generated,
    rbacJwtSecret,
    adminEmails: (env.ADMIN_EMAILS ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean),
    adminDigestMinutes: Number(env.ADMIN_DIGEST_MINUTES || 10),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'no-reply@localhost',
    telegramBotToken: env.TELEGRAM_BOT_TOKEN || undefined,
    // refused at start when it is no redis url (it was taken, and Redis then never reached)
    redisUrl: urlSetting(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: redisPrefixOf(env.REDIS_PREFIX),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    trustProxy: env.TRUST_PROXY === 'true',
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim().replace(/\/$/, '')).filter(Boolean),
    productName,
    keepAliveTimeoutMs,
    headersTimeoutMs,
  };
}
