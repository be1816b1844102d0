/**
 * The one allow-list of link targets, used by every url field (format 'link', checked on write) and by every
 * component that renders a stored url (checked again on render): http, https, mailto and tel urls, and
 * relative urls ('/x', 'x/y', '#x', '?x', '../x'). Refused: the empty string, javascript:, data:, vbscript: and every other
 * scheme, '//host', '/\host' and '\host' (another site), and spaces or control characters, which browsers
 * strip before they read the scheme ('java\tscript:').
 */
// spelled without the i flag, since JSON Schema patterns have none
export const SAFE_LINK_PATTERN = '^(?=.)(?:(?:[Hh][Tt][Tt][Pp][Ss]?|[Mm][Aa][Ii][Ll][Tt][Oo]|[Tt][Ee][Ll]):|(?![A-Za-z][A-Za-z0-9+.-]*:)(?![/\\\\]{2})(?!\\\\))[^\\u0000-\\u0020\\u007f]*$';

const SAFE_LINK = new RegExp(SAFE_LINK_PATTERN, 'u');

export const isSafeLink = (href: unknown): href is string => typeof href === 'string' && SAFE_LINK.test(href);

/**
 * What a file field may hold (plugins/file-storage: what uploads store, and what an admin may type): an https url
 * (a CDN, a blob store), a stored file's key ('team.png', 'assets/x.js'), or a path on this site ('/logo.svg'). Refused:
 * every other scheme (http:, javascript:, data:), '//host' and '/\\host' (another site, with the page's trust),
 * a '..' segment (or '%2e%2e', which browsers read so), a leading space (browsers strip it before they read a
 * scheme or '//'), and control characters. The storefront serves a key at /files/<key> (fileUrl).
 */
export const SAFE_FILE_PATTERN =
  '^(?:[Hh][Tt][Tt][Pp][Ss]://[^/?#\\\\\\s]+[^\\u0000-\\u0020\\u007f]*|(?!\\s)(?![A-Za-z][A-Za-z0-9+.-]*:)(?![/\\\\]{2})(?!\\\\)(?!(?:.*[/\\\\])?(?:\\.|%2[Ee]){2}(?:[/\\\\]|$))[^\\u0000-\\u001f\\u007f]+)$';

const SAFE_FILE = new RegExp(SAFE_FILE_PATTERN, 'u');

export const isSafeFile = (value: unknown): value is string => typeof value === 'string' && SAFE_FILE.test(value);
