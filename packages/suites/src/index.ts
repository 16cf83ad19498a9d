// Saved smoke suites, deploy webhooks, schedules and result notifications (issue 13).
export * from './crypto.js';
export * from './signatures.js';
export * from './store.js';
export * from './launch.js';
export * from './schedule.js';
export * from './notify/deliver.js';
export * from './notify/messages.js';
export * from './notify/notifier.js';
