export * from './config.js';
export * from './app.js';
export * from './runtime.js';
export * from './deps.js';
export * from './security/report-links.js';
export * from './security/view-tokens.js';
export * from './report/report-page.js';
export * from './node-flags.js';
