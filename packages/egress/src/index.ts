// Egress policy: which addresses the service and its browsers may reach for a tenant (issue 10).
export * from './ip.js';
export * from './policy.js';
export * from './proxy.js';
export * from './fetch.js';
export * from './guard.js';
