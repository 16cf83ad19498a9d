// Built-in disposable inboxes: SMTP receiver, Redis store, code and link extraction (issue 15).
export {};
