export * from './workers.js';
export * from './logger.js';
