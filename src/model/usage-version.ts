/** Version of usage event lines and of published usage figures (zod-free: the site's browser code reads it). */
export const USAGE_VERSION = 1;
