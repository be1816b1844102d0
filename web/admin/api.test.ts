import { describe, it, expect, vi, afterEach } from 'vitest';
import { http } from './api.js';

describe('admin requests', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('never has more than 5 in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const release: (() => void)[] = [];
    vi.stubGlobal('fetch', async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((r) => release.push(r));
      inFlight--;
      return new Response(JSON.stringify({ data: 1 }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const all = Promise.all(Array.from({ length: 12 }, () => http.request('GET', '/api/x')));
    for (let i = 0; i < 12; i++) {
      await vi.waitFor(() => expect(release.length).toBeGreaterThan(0), { timeout: 15_000 });
      release.shift()!();
    }
    expect(await all).toHaveLength(12);
    expect(most).toBe(5);
  });
});
