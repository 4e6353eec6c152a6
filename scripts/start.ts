import { main } from '../server/main.js';
import { ensureSpaBuilt } from './spa-build.js';

/** `npm start`: build the SPA if it is missing or stale, then run the one server process. */
await ensureSpaBuilt();
await main();
