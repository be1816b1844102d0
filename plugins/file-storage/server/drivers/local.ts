import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { keyIn, STORED_KEY, type StorageDriver } from './driver.js';

/** a folder on this machine (FILE_STORAGE_DIR); every path used is checked to stay inside it */
export function localDriver(dir: string): StorageDriver {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const pathOf = (key: string) => {
    const path = resolve(root, key);
    if (!STORED_KEY.test(key) || !path.startsWith(root + sep)) throw new Error(`not a stored key: ${key.slice(0, 80)}`);
    return path;
  };
  return {
    name: 'local',
    readsBack: true,
    root,
    async put(key, bytes, _mime, options) {
      const path = pathOf(key);
      if (!options?.replace) await writeFile(path, bytes, { flag: 'wx' });
      else {
        // written beside it and renamed over it: a reader never sees half a file
        const beside = `${path}.${randomUUID()}.tmp`;
        await writeFile(beside, bytes, { flag: 'wx' });
        await rename(beside, path).catch(async (e) => {
          await unlink(beside).catch(() => undefined);
          throw e;
        });
      }
      return key;
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch {
        return undefined;
      }
    },
    keyOf: (file) => keyIn(file),
    async remove(file) {
      const key = keyIn(file);
      if (key) await unlink(pathOf(key)).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
    },
  } as StorageDriver & { root: string };
}
