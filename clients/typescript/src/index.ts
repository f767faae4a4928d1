// @credence/client: a typed client of Credence (docs/clients.md).
export { CredenceClient, createCredenceClient, unwrap, type CredenceApi, type CredenceClientOptions } from "./client.js";
export {
  MAX_SOURCES_PER_REQUEST,
  TRUST_METADATA_KEY,
  annotationOf,
  type CandidateDecision,
  type FilteredCandidates,
  type TrustAnnotation,
} from "./candidates.js";
export {
  AuthenticationError,
  ConflictError,
  CredenceError,
  CredenceHttpError,
  CredenceNetworkError,
  ForbiddenError,
  NotFoundError,
  ProblemError,
  RateLimitedError,
  ServiceUnavailableError,
  TokenError,
  ValidationError,
  errorFromResponse,
  type Problem,
} from "./errors.js";
export { retryAfterMs, type RetryOptions } from "./retry.js";
export type { ClientCredentials, FetchFunction } from "./transport.js";
export type * from "./types.js";
export type { components, operations, paths } from "./generated/schema.js";
