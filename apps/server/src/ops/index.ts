import { defineOps } from './registry.js';
import { pageOps } from './page-ops.js';
import { observeOps } from './observe-ops.js';
import { exploreOps } from './explore-ops.js';
import { inspectOps } from './inspect-ops.js';
import { domOps } from './dom-ops.js';
import { locatorOps } from './locator-ops.js';

export * from './registry.js';

/** Every page operation, REST and WebSocket alike. */
export const ALL_OPS = defineOps([...pageOps, ...observeOps, ...exploreOps, ...inspectOps, ...domOps, ...locatorOps]);
