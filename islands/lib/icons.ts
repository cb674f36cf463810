// The icons: one SVG sprite, a build file with its content's hash in its name, which the browser fetches once and
// keeps for a year (src/http/assets.ts); pages and islands point at its symbols (`<use href="…#i-check">`)
// instead of carrying the sprite in every page. The server finds the same file in the build's manifest.
import sprite from '../icons.svg?no-inline';

/** The address of an icon of the sprite, by its name without `i-` (e.g. `check`). */
export const iconHref = (name: string): string => `${sprite}#i-${name}`;
