const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e.toLowerCase()] ?? m),
  );

/**
 * The plain-text part of an email, from the HTML the kit (kit.tsx) renders: paragraphs and headings become
 * blank-line separated blocks, a field row 'name: value', a link 'label: url' (or the url when it is its own
 * label); the hidden preview line and the head are left out.
 */
export function htmlToText(html: string): string {
  let s = html
    .replace(/<head[\s\S]*?<\/head>/gi, '')
    .replace(/<div[^>]*data-preview[^>]*>[\s\S]*?<\/div>/gi, '')
    .replace(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, label: string) => {
      const text = label.replace(/<[^>]+>/g, '');
      const url = decode(href);
      return decode(text) === url ? text : `${text}: ${href}`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/th>\s*<td[^>]*>/gi, ': ')
    .replace(/<\/tr>/gi, '\n')
    .replace(/<\/(p|h[1-6]|div|table)>/gi, '\n\n');
  s = decode(s.replace(/<[^>]+>/g, ''));
  return s
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
