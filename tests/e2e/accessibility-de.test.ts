import { describeRouteWalk } from './route-walk.js';

/** Every route under /de: axe and a 390 px phone (the walk itself is in route-walk.ts; /en is in accessibility.test.ts). */
describeRouteWalk('/de');
