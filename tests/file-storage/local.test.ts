import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { localDriver } from '../../plugins/file-storage/server/drivers/index.js';
import { runStorageCases } from './storage.case.js';

runStorageCases('local', async () => {
  const dir = mkdtempSync(join(ROOT, '.tmp', 'files-'));
  return {
    driver: localDriver(dir),
    servesOwnUrls: false,
    keys: async () => readdirSync(dir).sort(),
    bytes: async (key) => {
      try {
        return readFileSync(join(dir, key));
      } catch {
        return undefined;
      }
    },
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
