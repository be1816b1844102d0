import { describe, expect, it } from 'vitest';
import { utf8 } from '../../runtime/http/wire.js';

const plain = new TextEncoder();

describe('utf8: a text as bytes of its own', () => {
  it('gives the bytes TextEncoder gives: ASCII, two-byte text, astral characters, lone surrogates, nothing', () => {
    const texts = ['', 'plain <html>', 'Русский — ₽ “quotes”', 'emoji 🚀 and 𝄞', 'lone \ud800 and \udfff halves', 'x'.repeat(70000) + 'Ж'.repeat(30000) + '🚀'.repeat(1000)];
    for (const text of texts) expect(Buffer.from(utf8(text)).equals(Buffer.from(plain.encode(text))), text.slice(0, 20)).toBe(true);
  });

  it('a text made of many joined parts, as a render makes it, and one too long for the scratch buffer', () => {
    let joined = '<!doctype html>';
    for (let i = 0; i < 2000; i++) joined += `<p class="c${i}">Текст ${i} — ₽</p>`;
    expect(Buffer.from(utf8(joined)).equals(Buffer.from(plain.encode(joined)))).toBe(true);
    const long = 'Ю'.repeat(2_000_000);
    expect(Buffer.from(utf8(long)).equals(Buffer.from(plain.encode(long)))).toBe(true);
  });

  it('each answer owns its bytes: the next text written does not change them, and they are no larger than the text', () => {
    const first = utf8('first page ₽');
    const copy = Buffer.from(first);
    const second = utf8('a second, longer page that is written over the same scratch buffer');
    expect(Buffer.from(first).equals(copy)).toBe(true);
    expect(first.buffer).not.toBe(second.buffer);
    expect(first.buffer.byteLength).toBe(first.length);
  });
});
