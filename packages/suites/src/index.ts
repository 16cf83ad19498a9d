// Saved smoke suites, deploy webhooks, schedules and result notifications (issue 13).
export {};
