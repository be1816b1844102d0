import { vi } from 'vitest';

export interface SseEvent {
  event: string;
  data: any;
}

/**
 * Reads a Server-Sent Events response as it streams: every event parsed (`event:` and JSON `data:`), kept in
 * order; `waitFor(match)` resolves with the first event matching, waiting as long as it takes (never by time).
 */
export function readSse(res: Response) {
  const events: SseEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (!data.length) continue; // a comment (keep-alive) or a retry line
          const text = data.join('\n');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* plain text */
          }
          events.push({ event, data: parsed });
        }
      }
    } catch {
      /* cancelled */
    } finally {
      ended = true;
    }
  })();
  return {
    events,
    get ended() {
      return ended;
    },
    /** the first event (already received or still to come) that matches */
    waitFor(match: (e: SseEvent) => boolean, timeout = 20_000): Promise<SseEvent> {
      return vi.waitFor(
        () => {
          const found = events.find(match);
          if (!found) throw new Error(`no matching event among ${events.length}: ${JSON.stringify(events.slice(-5))}`);
          return found;
        },
        { timeout, interval: 20 },
      );
    },
    async close() {
      await reader.cancel().catch(() => undefined);
      await pump;
    },
  };
}

/** a revalidation event of this entity naming this id */
export const about = (module: string, route: string, id: string) => (e: SseEvent) => e.event === 'revalidate' && e.data.module === module && e.data.route === route && e.data.ids.includes(id);
