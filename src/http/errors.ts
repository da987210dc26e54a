/**
 * One error type for everything a person should read. The HTTP layer turns it into
 * `{"detail": "<message>"}` with the status from this table (CONTRACT.md, "Errors").
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const forbidden = (permission: string) =>
  new AppError('forbidden', `This action needs the permission "${permission}", which your credential does not hold`);
export const conflict = (message: string) => new AppError('conflict', message);
export const unauthenticated = (message = 'Not authenticated') =>
  new AppError('unauthenticated', message, { 'www-authenticate': 'Bearer' });

/** A 422 entry, shaped like FastAPI / pydantic's. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** A 422 raised by a service for a rule the schema cannot express. */
export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'RequestValidationError';
  }
}

export const invalid = (loc: Array<string | number>, msg: string, type = 'value_error') =>
  new RequestValidationError([{ loc, msg, type }]);
