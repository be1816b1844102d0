import { randomUUID } from 'node:crypto';
import { and, count, eq, ne } from 'drizzle-orm';
import type { Drizzle } from '../../../runtime/db/index.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { HookSet } from '../../../runtime/crud/hooks.js';
import { judge, type Judged } from './content.js';
import type { StorageDriver } from './drivers/index.js';

type Row = Record<string, unknown>;

/** bytes stored, not yet a row: the value for the file field and what the bytes are */
export type Stored = Judged & { file: string };

/**
 * What the file-storage module offers the others (`ctx.services.fileStorage`).
 * @example
 * const row = await (ctx.services.fileStorage as FileStorageService).store({ bytes: png, name: 'receipt.png' });
 */
export interface FileStorageService {
  /** judges the bytes, stores them through the configured driver and creates the file-storage/file row */
  store(input: { bytes: Uint8Array; name?: string; alt?: string }, tx?: Drizzle): Promise<Row>;
  /** deletes the row; its object goes with it (the module's delete hook) */
  remove(id: string): Promise<void>;
  /** judges and stores bytes without a row (uploads that fill a row's fields) */
  put(bytes: Uint8Array, field?: string): Promise<Stored>;
  /** where a file value is served: https urls as they are, anything else under the public files prefix */
  publicUrl(file: string): string;
  /** the absolute address of a public row's OpenGraph image (og:image), rendered and stored on first use */
  openGraphImageUrl(entityId: string, id: string, language: string): string;
  readonly driver: StorageDriver;
}

/** spec §9: a file value that does not start with https gets the public files location */
export const publicFileUrl = (file: string) => (file.startsWith('https') || file.startsWith('/') ? file : `/files/${file}`);

export function fileStorageService(ctx: PluginContext, driver: StorageDriver): Omit<FileStorageService, 'openGraphImageUrl'> {
  const entity = ctx.model.byId['file-storage/file'];
  const put = async (bytes: Uint8Array, field = 'file'): Promise<Stored> => {
    const judged = await judge(bytes, field);
    const file = await driver.put(`${randomUUID()}.${judged.extension}`, bytes, judged.mimeType);
    return { ...judged, file };
  };
  return {
    driver,
    put,
    publicUrl: publicFileUrl,
    async store({ bytes, name, alt }, tx) {
      const stored = await put(bytes);
      const title = name?.trim().slice(0, 200);
      try {
        return await ctx.repo.create(entity, { ...stored, ...(title && { adminTitle: title }), ...(alt && { alt: { [ctx.model.defaultLanguage]: alt } }) }, tx);
      } catch (e) {
        await driver.remove(stored.file).catch((err) => ctx.log.warn({ err }, 'file-storage: could not remove an unused object'));
        throw e;
      }
    },
    async remove(id) {
      await ctx.repo.delete(entity, id);
    },
  };
}

/**
 * A deleted file row takes its object with it, and a row whose file is replaced drops the old one — once the
 * write is committed, and only when no other row still names the same object.
 */
export function fileHooks(ctx: PluginContext, driverOf: () => StorageDriver): HookSet {
  const t = () => ctx.database.tables['file-storage/file'];
  async function drop(file: unknown, exceptId: string) {
    const driver = driverOf();
    if (typeof file !== 'string' || !driver.keyOf(file)) return;
    const [{ n }] = await ctx.database.db.select({ n: count() }).from(t()).where(and(eq(t().file, file), ne(t().id, exceptId)));
    if (Number(n) === 0) await driver.remove(file);
  }
  return {
    'file-storage/file': {
      async afterCommit({ operation, row, previous }) {
        if (operation === 'delete') await drop(row.file, row.id);
        else if (operation === 'update' && previous && previous.file !== row.file) await drop(previous.file, row.id);
      },
    },
  };
}
