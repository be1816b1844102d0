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
  });
});
