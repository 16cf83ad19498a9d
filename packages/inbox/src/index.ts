// Built-in disposable inboxes (issue 15): an SMTP listener that accepts mail only for
// addresses the service created, a Redis store with a TTL, and the rules that find a
// verification code or a confirmation link in a message.
export * from './extract.js';
export * from './store.js';
export * from './smtp.js';
