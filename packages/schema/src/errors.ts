// One error vocabulary for the whole service: every failure a client can see has a
// stable code here and exactly one HTTP status. Routes, the WebSocket channel and
// the flow runner all throw AppError; the server turns it into
// `{ error: { code, message, details? } }`.

export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_selector: 400,
  level_out_of_range: 400,
  unauthorized: 401,
  navigation_blocked: 403,
  not_found: 404,
  session_not_found: 404,
  role_not_found: 404,
  page_not_found: 404,
  request_not_found: 404,
  ref_not_found: 409,
  ref_stale: 409,
  ref_ambiguous: 409,
  target_not_found: 409,
  ambiguous_target: 409,
  dialog_pending: 409,
  no_dialog: 409,
  role_exists: 409,
  last_page: 409,
  tab_limit: 409,
  action_failed: 422,
  // An action that ran but did not do what it is for (issue 24/26): never answered ok.
  click_intercepted: 422,
  no_effect: 422,
  check_failed: 422,
  select_failed: 422,
  session_crashed: 410,
  session_expired: 410,
  session_closed: 410,
  session_lost: 410,
  page_crashed: 410,
  payload_too_large: 413,
  capacity_exhausted: 503,
  queue_full: 429,
  rate_limited: 429,
  too_many_streams: 429,
  quota_exceeded: 429,
  timeout: 504,
  operation_timeout: 504,
  navigation_failed: 502,
  node_unreachable: 502,
  redis_unavailable: 503,
  queue_timeout: 503,
  shutting_down: 503,
  internal_error: 500,
  run_not_found: 404,
  run_finished: 409,
  no_passing_cases: 409,
  inbox_not_found: 404,
  inbox_disabled: 403,
  // Flow steps that read the run's inbox (reported in run reports).
  email_not_received: 422,
  code_not_found: 422,
  link_not_found: 422,
  forbidden_origin: 403,
  mcp_session_not_found: 404,
  egress_denied: 403,
  model_error: 502,
  // Saved suites and their deploy webhooks (issue 13).
  suite_not_found: 404,
  secrets_key_missing: 409,
  hook_not_found: 404,
  invalid_signature: 401,
  signature_expired: 401,
  invalid_payload: 400,
  invalid_schedule: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  /** Extra response headers, e.g. Retry-After for 429. */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toJSON(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
