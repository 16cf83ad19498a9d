export * from './config.js';
export * from './app.js';
export * from './runtime.js';
export * from './deps.js';
