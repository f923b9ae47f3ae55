// Write config/skillpress.schema.json from the zod schema (the single source of truth), so
// editors validate and complete config/skillpress.json. `npm run schemas` runs it; a test
// checks the committed file is current.
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../src/model/config-schema.ts';

const out = new URL('../config/skillpress.schema.json', import.meta.url);
writeFileSync(out, configJsonSchema());
console.log(`wrote ${out.pathname}`);
