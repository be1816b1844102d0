import { describe, it, expect } from 'vitest';
import { loadConfig } from '../../runtime/config.js';

describe('configuration from the environment', () => {
  it('development makes up a missing RBAC_SECRET_KEY and says so', () => {
    const c = loadConfig({});
    expect(c.rbacSecretKey.length).toBeGreaterThanOrEqual(24);
    expect(c.generated).toEqual(['RBAC_SECRET_KEY', 'RBAC_JWT_SECRET']);
    expect(c.port).toBe(4000);
    expect(c.databaseUrl).toBe('file:./data/app.db');
  });

  it('production refuses to start without a strong RBAC_SECRET_KEY', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('RBAC_SECRET_KEY is required when NODE_ENV=production');
    expect(() => loadConfig({ NODE_ENV: 'production', RBAC_SECRET_KEY: 'short' })).toThrow('at least 16 characters');
    expect(() => loadConfig({ NODE_ENV: 'production', RBAC_SECRET_KEY: 'a-long-enough-secret-key' })).toThrow('RBAC_JWT_SECRET is required');
    const c = loadConfig({ NODE_ENV: 'production', RBAC_SECRET_KEY: 'a-long-enough-secret-key', RBAC_JWT_SECRET: 'another-long-secret-value', PORT: '8080', DEBUG: 'true' });
    expect(c).toMatchObject({ port: 8080, production: true, debug: false, generated: [] });
  });

  it('a bad PORT or DATABASE_URL is a clear error', async () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow("PORT must be a port number, got 'eighty'");
    const { dialectOf } = await import('../../runtime/db/index.js');
    expect(dialectOf('postgres://u@h/db')).toBe('pg');
    expect(dialectOf('file:./x.db')).toBe('sqlite');
    expect(() => dialectOf('mysql://user:pw@host/db')).toThrow("DATABASE_URL must start with file: or postgres://, got 'mysql://***@host/db'");
    // a bare word or a misspelt scheme is refused when the configuration is read, not opened as a new SQLite file
    for (const url of ['garbage', './data/app.db', 'postgre://u@h/db'])
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(`DATABASE_URL must start with file: or postgres://, got '${url.replace('//u@', '//***@')}'`);
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBe('file:./data/app.db');
    // a malformed PostgreSQL url names the setting (the driver said only 'Invalid URL'), the password masked
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:secret@127.0.0.1:abc/db' })).toThrow("DATABASE_URL is not a valid url: 'postgres://***@127.0.0.1:abc/db'");
  });

  it('every setting read elsewhere is checked at start, naming it and what it takes', () => {
    const refused: [Record<string, string>, string][] = [
      [{ DATABASE_POOL_SIZE: '-3' }, "DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got '-3'"],
      [{ DATABASE_POOL_SIZE: 'abc' }, 'DATABASE_POOL_SIZE must be a whole number'],
      [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE must be a whole number'],
      [{ SHUTDOWN_GRACE_MS: 'soon' }, "SHUTDOWN_GRACE_MS must be a whole number from 0 to 3600000, got 'soon'"],
      [{ SQLITE_BUSY_TIMEOUT_MS: '-5' }, 'SQLITE_BUSY_TIMEOUT_MS must be a whole number'],
      [{ ADMIN_DIGEST_MINUTES: '0' }, "ADMIN_DIGEST_MINUTES must be a whole number from 1 to 1440, got '0'"],
      [{ WEB: 'foo' }, "WEB must be one of off, built, vite, got 'foo'"],
      [{ TRUST_PROXY: 'yes' }, "TRUST_PROXY must be one of true, false, got 'yes'"],
      [{ LOG_LEVEL: 'verbose' }, "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'verbose'"],
      [{ PUBLIC_URL: 'notaurl' }, "PUBLIC_URL must be a http:// or https:// url, got 'notaurl'"],
      [{ SMTP_URL: 'notaurl' }, "SMTP_URL must be a smtp:// or smtps:// url, got 'notaurl'"],
      [{ SMTP_URL: 'http://u:secret@mail' }, "got 'http://***@mail'"],
    ];
    for (const [env, message] of refused) expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '20', SHUTDOWN_GRACE_MS: '0', WEB: 'off', TRUST_PROXY: 'true', LOG_LEVEL: 'debug', PUBLIC_URL: 'https://shop.example', SMTP_URL: 'smtps://u:p@mail.example:465' })).not.toThrow();
    // the admins' digest window: 10 minutes unless set
    expect([loadConfig({}).adminDigestMinutes, loadConfig({ ADMIN_DIGEST_MINUTES: '60' }).adminDigestMinutes]).toEqual([10, 60]);
  });

  it('an empty PORT is the default; REDIS_URL must be a redis url', () => {
    // an env file's blank PORT= served on a random port and made every absolute link http://localhost:0
    expect(loadConfig({ PORT: '' })).toMatchObject({ port: 4000, publicUrl: 'http://localhost:4000' });
    expect(loadConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.example:6380/2' }).redisUrl).toBe('rediss://:pw@cache.example:6380/2');
    for (const url of ['notaurl', 'http://127.0.0.1:6379', '127.0.0.1:6379', 'redis://'])
      expect(() => loadConfig({ REDIS_URL: url }), url).toThrow(/^REDIS_URL must be a redis:\/\/ or rediss:\/\/ url/);
    expect(() => loadConfig({ REDIS_URL: 'http://:hunter2@host' })).toThrow("got 'http://***@host'");
    expect(loadConfig({}).redisPrefix).toBe('');
    expect(loadConfig({ REDIS_PREFIX: 'shop-eu' }).redisPrefix).toBe('shop-eu:');
    expect(() => loadConfig({ REDIS_PREFIX: 'a b' })).toThrow("REDIS_PREFIX must be 1 to 64 letters, digits or -_.:, got 'a b'");
  });
});
