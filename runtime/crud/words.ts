import { uniqueNamesGenerator, adjectives, colors, animals } from 'unique-names-generator';

/** three random words, e.g. 'brave-teal-otter' (slug) or 'brave teal otter' (adminTitle) */
export function randomWords(separator: '-' | ' '): string {
  return uniqueNamesGenerator({ dictionaries: [adjectives, colors, animals], separator, length: 3, style: 'lowerCase' })
    .replace(/[^a-z0-9 -]/g, '');
}
