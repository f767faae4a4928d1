// Errors as typed exceptions. The server answers errors as RFC 9457
// problem+json with a stable `code` (docs/openapi.md); each status a caller
// reacts to differently gets a class of its own, so `catch` can tell "fix the
// request" (ValidationError) from "fix the credential" (AuthenticationError,
// ForbiddenError) from "try later" (RateLimitedError, ServiceUnavailableError,
// raised only once the retries are spent).
import type { components } from "./generated/schema.js";
import { retryAfterMs } from "./retry.js";

/** An RFC 9457 problem as the server answers it. */
export type Problem = components["schemas"]["Problem"];

/** The base class of every error this package throws. */
export class CredenceError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The server could not be reached, or did not answer within `timeoutMs`; `cause` holds the underlying error. */
export class CredenceNetworkError extends CredenceError {
  readonly method: string;
  readonly url: string;
  readonly timedOut: boolean;

  constructor(method: string, url: string, cause: unknown) {
    const timedOut = cause instanceof Error && cause.name === "TimeoutError";
    const why = timedOut ? "no answer in time" : cause instanceof Error ? cause.message : String(cause);
    super(`${method} ${url}: ${why}`, { cause });
    this.method = method;
    this.url = url;
    this.timedOut = timedOut;
  }
}

/** An HTTP error answer that is not problem+json (e.g. from a proxy in front of the server). */
export class CredenceHttpError extends CredenceError {
  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  /** The answer's body: parsed JSON when it was JSON, else the text. */
  readonly body: unknown;
  /** From `Retry-After`, when the answer had one. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, method: string, url: string, response: Response, body: unknown) {
    super(message);
    this.status = response.status;
    this.method = method;
    this.url = url;
    this.headers = response.headers;
    this.body = body;
    this.retryAfterMs = retryAfterMs(response.headers.get("retry-after"));
  }
}

/** A problem+json answer. Subclasses name the statuses callers handle apart. */
export class ProblemError extends CredenceHttpError {
  readonly problem: Problem;

  constructor(method: string, url: string, response: Response, problem: Problem) {
    const where = `${method} ${new URL(url).pathname}`;
    const request = problem.requestId ? `, request ${problem.requestId}` : "";
    const fields = problem.errors?.length ? ` ${problem.errors.map((e) => `${e.field}: ${e.message}`).join("; ")}.` : "";
    super(`${problem.status} ${problem.code}: ${problem.detail}${fields} (${where}${request})`, method, url, response, problem);
    this.problem = problem;
  }

  /** The stable snake_case code, e.g. `validation_failed`, `invalid_token`, `rate_limited`. */
  get code(): string {
    return this.problem.code;
  }

  get detail(): string {
    return this.problem.detail;
  }

  /** The server's request id: quote it to an operator. */
  get requestId(): string | undefined {
    return this.problem.requestId ?? this.headers.get("x-request-id") ?? undefined;
  }
}

/** 400: the request was malformed or failed validation; `fieldErrors` names each field. */
export class ValidationError extends ProblemError {
  get fieldErrors(): { field: string; message: string }[] {
    return this.problem.errors ?? [];
  }
}

/** 401: no credential, or one that is not valid (unknown, revoked, expired, disabled). */
export class AuthenticationError extends ProblemError {}

/** 403: valid credential, not allowed; `insufficient_scope` names the missing `scope`. */
export class ForbiddenError extends ProblemError {
  get scope(): string | undefined {
    return this.problem.scope;
  }
}

/** 404: unknown, or another tenant's. */
export class NotFoundError extends ProblemError {}

/** 409: the resource's state does not allow the change. */
export class ConflictError extends ProblemError {}

/** 429 after the retries: `policy` names the limit (key, app, user, address). */
export class RateLimitedError extends ProblemError {
  get policy(): string | undefined {
    return this.problem.policy;
  }
}

/** 503 after the retries: the server (or the load balancer in front of it) cannot serve now. */
export class ServiceUnavailableError extends ProblemError {}

/**
 * The token endpoint refused the client credentials (RFC 6749 section 5.2):
 * `error` is `invalid_client` (unknown, wrong, revoked, disabled or expired key),
 * `invalid_scope`, `invalid_request` or `unsupported_grant_type`.
 */
export class TokenError extends CredenceError {
  readonly status: number;
  readonly error: string;
  readonly description: string | undefined;

  constructor(status: number, error: string, description: string | undefined) {
    super(`token endpoint: ${status} ${error}${description ? `: ${description}` : ""}`);
    this.status = status;
    this.error = error;
    this.description = description;
  }
}

const problemClasses: Record<number, typeof ProblemError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitedError,
  503: ServiceUnavailableError,
};

function isProblem(body: unknown): body is Problem {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.status === "number" && typeof b.code === "string" && typeof b.type === "string";
}

/** The error for a non-2xx answer whose body was already read (`body`: parsed JSON or text). */
export function errorFromResponse(method: string, url: string, response: Response, body: unknown): CredenceHttpError {
  if (isProblem(body)) {
    const Class = problemClasses[response.status] ?? ProblemError;
    return new Class(method, url, response, body);
  }
  const text = typeof body === "string" ? body.slice(0, 200) : JSON.stringify(body)?.slice(0, 200);
  return new CredenceHttpError(
    `${response.status} ${response.statusText || "error"} (${method} ${url})${text ? `: ${text}` : ""}`,
    method,
    url,
    response,
    body,
  );
}
