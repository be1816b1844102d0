/**
 * joins class names, skipping falsy ones. It does not resolve Tailwind conflicts: `cn('text-lg', 'text-base')` keeps
 * both and the stylesheet's order picks one, so a component whose look a caller may replace takes it as a prop of
 * its own (`padding`, `look`) instead of expecting a second utility in `className` to win.
 */
export const cn = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(' ');
