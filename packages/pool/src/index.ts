export * from './browser-pool.js';
export * from './session-manager.js';
export * from './deadline.js';
export * from './download-guard.js';
export * from './chromium-features.js';
