import { describe, it, expect, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { codegen, ROOT } from '../../engine/codegen.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp } from '../helpers/app.js';
import { scratchProject } from '../helpers/schemas.js';

const gitStatus = () => execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT }).toString();

/** an integrator drops one manifest into a new module: table, routes, types and client method follow */
describe('drop-in entity', () => {
  const p = scratchProject({ copySchemas: true });
  afterAll(() => p.remove());

  it('one new manifest file is all it takes', async () => {
    const before = gitStatus();
    p.write('gizmo/gadget.json', {
      $schema: '../meta/manifest.schema.json',
      name: 'gadget', route: 'gadgets', title: 'Gadget',
      variants: ['default', 'shiny'],
      fields: {
        adminTitle: { kind: 'text', required: true, generate: 'words' },
        slug: { kind: 'text', required: true, unique: true, generate: 'slug', pattern: '^[a-z0-9-]+$' },
        title: { kind: 'localized' },
        voltage: { kind: 'number', minimum: 0, default: 5 },
        productId: { kind: 'reference', to: 'ecommerce/product', onDelete: 'set null' },
      },
    });
    const result = await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
    expect(result.model.modules).toContain('gizmo');
    expect(result.written.every((f) => f.startsWith(p.dir))).toBe(true);
    expect(gitStatus()).toBe(before); // no file of the project was touched

    const types = readFileSync(`${p.outDir}/types.ts`, 'utf8');
    const row = types.split('export interface GizmoGadget {')[1].split('export interface')[0];
    expect(row).toContain('voltage: number');
    expect(row).toContain('variant: ("default" | "shiny")');
    expect(types).toMatch(/export interface GizmoGadgetCreate \{/);
    expect(readFileSync(`${p.outDir}/db/sqlite.ts`, 'utf8')).toContain("export const gizmoGadgets = sqliteTable(\n  'gizmo_gadgets'");
    expect(readFileSync(`${p.outDir}/db/pg.ts`, 'utf8')).toContain("uniqueIndex('gizmo_gadgets_slug_key')");
    expect(readFileSync(`${p.migrationsDir}/sqlite/0000_init.sql`, 'utf8')).toContain('CREATE TABLE `gizmo_gadgets`');

    for (const d of DIALECTS) {
      const t = await bootApp(await d.make(), { generatedDir: p.outDir, migrationsDir: p.migrationsDir });
      try {
        const server = await import('@hono/node-server').then((m) => new Promise<import('node:http').Server>((resolve) => {
          const s = m.serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as import('node:http').Server));
        }));
        const port = (server.address() as { port: number }).port;
        const { createApi } = await import(pathToFileURL(`${p.outDir}/client.ts`).href);
        const api = createApi({ baseUrl: `http://127.0.0.1:${port}`, headers: { 'x-rbac-secret-key': 'test-secret-key-0123456789' } });
        const made = await api.gizmo.gadgets.create({ title: { en: 'Lamp' }, variant: 'shiny' });
        expect(made).toMatchObject({ voltage: 5, variant: 'shiny', title: { en: 'Lamp' }, productId: null });
        expect(await api.gizmo.gadgets.findById(made.id)).toEqual(made);
        expect(await api.gizmo.gadgets.count()).toBe(1);
        await expect(api.gizmo.gadgets.create({ voltage: -1 })).rejects.toThrow('Validation failed: voltage must be >= 0 | voltage must be >= 0 | 400 | Bad Request');
        await new Promise((r) => server.close(r));
      } finally {
        await t.close();
      }
    }
  });
});
