import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { StorageDriver } from '../drivers/index.js';

/** the PNG text chunk keyword under which a cached image keeps the version it was drawn from */
const KEYWORD = 'generated-version';
/** images kept in this process besides the store (about 150 KB each): the latest ones, and all of a store that is not read back */
const IN_MEMORY = 16;
/** where the first chunk (IHDR: 4 length, 4 type, 13 data, 4 CRC) ends, after the 8-byte signature */
const AFTER_IHDR = 8 + 4 + 4 + 13 + 4;

/**
 * A cache slot's object name: a UUID-shaped hash of the slot (variant, entity, row, language), so that every driver
 * takes it as one of its generated keys. One slot, one object: a new version is written over the old one.
 */
export function slotKey(slot: string): string {
  const h = createHash('sha256').update(slot).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}.png`;
}

/** the PNG with a tEXt chunk naming its version, right after IHDR (readers ignore text chunks) */
export function withVersion(png: Uint8Array, version: string): Uint8Array {
  const data = Buffer.from(`${KEYWORD}\0${version}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return Buffer.concat([png.subarray(0, AFTER_IHDR), chunk, png.subarray(AFTER_IHDR)]);
}

/** the version a cached PNG names (withVersion), or undefined: read from the chunks before the image data */
export function versionOf(png: Uint8Array): string | undefined {
  const b = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at + 12 <= b.length; ) {
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT' || type === 'IEND') return undefined;
    if (type === 'tEXt') {
      const text = b.toString('latin1', at + 8, at + 8 + length);
      if (text.startsWith(`${KEYWORD}\0`)) return text.slice(KEYWORD.length + 1);
    }
    at += 12 + length;
  }
  return undefined;
}

/**
 * Generated images as a cache, not as files: one object per slot in the configured store, named by the slot
 * (slotKey) and holding the version it shows (a hash of what it was drawn from). A request for a version the slot
 * does not hold renders it once — however many ask at the same moment — and writes it over the slot's previous one;
 * deleting the slot's row removes it (`remove`). A store that is not read back (Vercel Blob serves its own urls)
 * keeps nothing: the latest images stay in this process only.
 */
export function imageCache(driverOf: () => StorageDriver) {
  const memory = new Map<string, { version: string; bytes: Uint8Array }>();
  const pending = new Map<string, Promise<Uint8Array>>();
  const remember = (slot: string, version: string, bytes: Uint8Array) => {
    memory.delete(slot);
    if (memory.size >= IN_MEMORY) memory.delete(memory.keys().next().value!);
    memory.set(slot, { version, bytes });
  };

  /** the slot's image as the store holds it at `version`, else rendered and stored in its place */
  async function load(slot: string, version: string, render: () => Promise<Uint8Array>, stillWanted: () => Promise<boolean>): Promise<Uint8Array> {
    const driver = driverOf();
    const key = slotKey(slot);
    const stored = driver.readsBack ? await driver.get(key) : undefined;
    if (stored && versionOf(stored) === version) return stored;
    const png = withVersion(await render(), version);
    if (!driver.readsBack) return png;
    await driver.put(key, png, 'image/png', { replace: true });
    // its row deleted while this was drawn (the delete hook found nothing to remove yet): nothing stays behind
    if (!(await stillWanted())) await driver.remove(key);
    return png;
  }

  return {
    /**
     * The PNG of `slot` at `version`: from this process, the store, or `render` (which may refuse, as a rate limit
     * does); `stillWanted` is asked once a new image is stored.
     */
    async image(slot: string, version: string, render: () => Promise<Uint8Array>, stillWanted: () => Promise<boolean>): Promise<Uint8Array> {
      const kept = memory.get(slot);
      if (kept?.version === version) return kept.bytes;
      const id = `${slot}\u0000${version}`;
      let loading = pending.get(id);
      if (!loading) {
        loading = load(slot, version, render, stillWanted)
          .then((bytes) => (remember(slot, version, bytes), bytes))
          .finally(() => pending.delete(id));
        pending.set(id, loading);
      }
      return loading;
    },
    /** forgets the slot: its object in the store, and this process's copy */
    async remove(slot: string): Promise<void> {
      memory.delete(slot);
      await driverOf().remove(slotKey(slot));
    },
  };
}

export type ImageCache = ReturnType<typeof imageCache>;
