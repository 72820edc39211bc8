// Loaded with `node --import` by the start-up test: registers a resolve hook that appends every
// module URL the CLI imports to the file named by STRATA_RECORD_IMPORTS.
import { register } from 'node:module';

register('./record-imports-hooks.mjs', import.meta.url);
