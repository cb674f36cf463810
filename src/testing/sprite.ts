// The address of the icons' sprite as pages and islands write it (src/http/assets.ts, islands/lib/icons.ts): one
// build file with its content's hash in its name, and a symbol of it after '#'. For the tests that check icons.
const SPRITE = String.raw`/build/assets/icons-[\w-]{8}\.svg`;

/** The sprite file itself. */
export const SPRITE_FILE = new RegExp(`^${SPRITE}$`);
/** An icon: a symbol of the sprite file (`…/icons-HASH.svg#i-check`). */
export const ICON_HREF = new RegExp(`^${SPRITE}#i-[a-z0-9-]+$`);
