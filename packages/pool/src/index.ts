export * from './browser-pool.js';
export * from './session-manager.js';
