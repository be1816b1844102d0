/** width and height in pixels, read from the first bytes of an image (or an mp4's track header) */
export interface Dimensions {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));
const valid = (d: Dimensions | undefined) => (d && d.width > 0 && d.height > 0 && Number.isFinite(d.width) && Number.isFinite(d.height) ? d : undefined);

function png(b: Uint8Array): Dimensions | undefined {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return undefined;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): Dimensions | undefined {
  return b.length < 10 ? undefined : { width: u16le(b, 6), height: u16le(b, 8) };
}

function jpeg(b: Uint8Array): Dimensions | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = u16be(b, i + 2);
    // start-of-frame markers (baseline, progressive, …), not DHT (c4), JPG (c8) or DAC (cc)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    i += 2 + length;
  }
  return undefined;
}

function webp(b: Uint8Array): Dimensions | undefined {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X' && b.length >= 30) return { width: 1 + u24le(b, 24), height: 1 + u24le(b, 27) };
  if (chunk === 'VP8 ' && b.length >= 30) return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return undefined;
}

/** ISO base media boxes (avif, mp4): the first `ispe` (image spatial extents) or `tkhd` with a size */
function isoBoxes(b: Uint8Array, start: number, end: number, depth = 0): Dimensions | undefined {
  const containers = new Set(['moov', 'trak', 'meta', 'iprp', 'ipco', 'mdia', 'minf', 'stbl']);
  let i = start;
  while (i + 8 <= end && depth < 8) {
    let size = u32be(b, i);
    const type = ascii(b, i + 4, 4);
    let header = 8;
    if (size === 1 && i + 16 <= end) {
      size = u32be(b, i + 8) * 2 ** 32 + u32be(b, i + 12);
      header = 16;
    } else if (size === 0) size = end - i;
    if (size < header) return undefined;
    const boxEnd = Math.min(end, i + size);
    if (type === 'ispe' && i + 20 <= end) return valid({ width: u32be(b, i + 12), height: u32be(b, i + 16) });
    if (type === 'tkhd') {
      const version = b[i + 8];
      const at = i + header + (version === 1 ? 88 : 76);
      if (at + 8 <= end) {
        const found = valid({ width: u32be(b, at) / 65536, height: u32be(b, at + 4) / 65536 });
        if (found) return { width: Math.round(found.width), height: Math.round(found.height) };
      }
    }
    if (containers.has(type)) {
      // 'meta' is a full box: four bytes of version and flags before its children
      const found = isoBoxes(b, i + header + (type === 'meta' ? 4 : 0), boxEnd, depth + 1);
      if (found) return found;
    }
    i += size;
  }
  return undefined;
}

/** the pixel size of an image or video of one of the allowed types, when its header says */
export function dimensionsOf(bytes: Uint8Array, mime: string): Dimensions | undefined {
  try {
    switch (mime) {
      case 'image/png':
        return valid(png(bytes));
      case 'image/gif':
        return valid(gif(bytes));
      case 'image/jpeg':
        return valid(jpeg(bytes));
      case 'image/webp':
        return valid(webp(bytes));
      case 'image/avif':
      case 'video/mp4':
        return isoBoxes(bytes, 0, bytes.length);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
