import { describe, it, expect, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { createEventBus } from '../../runtime/events.js';

/** the event bus over Redis: what a process publishes as it shuts down still reaches the others */
describe.skipIf(!process.env.REDIS_URL && !process.env.CI)('event bus over Redis', () => {
  it('a publish made just before close is sent before the connection quits', async () => {
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const channel = `test-bus-${randomBytes(4).toString('hex')}`;
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const sender = createEventBus<{ n: number }>(channel, url, log);
    const receiver = createEventBus<{ n: number }>(channel, url, log);
    await Promise.all([sender.ready, receiver.ready]);
    const heard: number[] = [];
    receiver.subscribe((e) => heard.push(e.n));
    sender.publish({ n: 1 });
    sender.publish({ n: 2 });
    await sender.close();
    await vi.waitFor(() => expect(heard).toEqual([1, 2]), { timeout: 3000, interval: 50 });
    expect(warnings.join('')).not.toContain('cannot publish');
    await receiver.close();
  });
});
