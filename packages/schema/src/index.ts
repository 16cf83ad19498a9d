export * from './errors.js';
export * from './common.js';
export * from './sessions.js';
export * from './page.js';
export * from './redact.js';
export * from './diff-words.js';
