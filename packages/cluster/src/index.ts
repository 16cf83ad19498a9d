export * from './redis.js';
export * from './embedded-redis.js';
export * from './session-store.js';
