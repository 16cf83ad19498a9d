export * from './workers.js';
