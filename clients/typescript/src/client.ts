import createClient, { type Client } from "openapi-fetch";
import { filterCandidates, type FilteredCandidates } from "./candidates.js";
import { errorFromResponse } from "./errors.js";
import type { paths } from "./generated/schema.js";
import type { RetryOptions } from "./retry.js";
import { Transport, requestOf, type ClientCredentials, type FetchFunction } from "./transport.js";
import type {
  DecisionRecord,
  EvaluateAnswer,
  FilterSourcesAnswer,
  SourceMetadata,
  TrustContext,
  UsageAnswer,
  UsageRequest,
  WhoAmI,
} from "./types.js";

/** The generated client: every route of /openapi.json, typed; answers `{data, error, response}`. */
export type CredenceApi = Client<paths>;

export interface CredenceClientOptions {
  /** Where Credence is, e.g. `https://credence.example.com`. */
  baseUrl: string;
  /** An API key or an AI application's key (`crd_sk_...`), sent as `X-Api-Key`. */
  apiKey?: string;
  /** A key's client id and secret, exchanged for access tokens at the token endpoint and refreshed as they expire. */
  clientCredentials?: ClientCredentials;
  /** A bearer credential obtained elsewhere (e.g. a person's session); sent as it is. */
  accessToken?: string;
  /** Retries of 429 and 503; `false` for none. */
  retry?: RetryOptions | false;
  /** The time limit of each attempt in milliseconds (default 30 000; 0 for none). */
  timeoutMs?: number;
  /** Headers added to every request (e.g. `User-Agent`). */
  headers?: Record<string, string>;
  /** The fetch to send with (default `globalThis.fetch`): for a proxy agent, or to observe requests. */
  fetch?: FetchFunction;
}

/** Raises the typed error of a failed call of the generated client, else answers its data. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  const { response } = result;
  if (response.ok && result.error === undefined) return result.data as T;
  const request = requestOf(response);
  throw errorFromResponse(request?.method ?? "?", request?.url ?? response.url, response, result.error);
}

/**
 * A client of Credence. `api` reaches every route with its types; the methods
 * cover the trust plane an AI application calls and raise typed errors
 * (errors.ts) instead of answering them.
 */
export class CredenceClient {
  readonly baseUrl: string;
  readonly api: CredenceApi;

  constructor(options: CredenceClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError(`baseUrl must be an absolute http(s) URL, not ${JSON.stringify(options.baseUrl)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`baseUrl must be an absolute http(s) URL, not ${JSON.stringify(options.baseUrl)}`);
    }
    const credentials = [options.apiKey, options.clientCredentials, options.accessToken].filter((c) => c !== undefined);
    if (credentials.length > 1) {
      throw new TypeError("give one of apiKey, clientCredentials and accessToken");
    }
    if (options.clientCredentials && (!options.clientCredentials.clientId || !options.clientCredentials.clientSecret)) {
      throw new TypeError("clientCredentials needs clientId and clientSecret");
    }
    this.baseUrl = url.href.replace(/\/+$/, "");
    const transport = new Transport({ ...options, baseUrl: this.baseUrl });
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: (request) => transport.send(request) });
  }

  /** POST /api/trust/evaluate: one decision per source, in request order; one ledger record. */
  async evaluate(sources: readonly string[], context?: TrustContext): Promise<EvaluateAnswer> {
    return unwrap(await this.api.POST("/api/trust/evaluate", { body: { sources: [...sources], ...(context && { context }) } }));
  }

  /** POST /api/trust/filter-sources: the same decisions partitioned into allowed, warned and blocked; one ledger record. */
  async filterSources(sources: readonly string[], context?: TrustContext): Promise<FilterSourcesAnswer> {
    return unwrap(await this.api.POST("/api/trust/filter-sources", { body: { sources: [...sources], ...(context && { context }) } }));
  }

  /** GET /api/trust/decisions/{decisionId}: the ledger record, as it was at decision time (scope trust:read). */
  async decision(decisionId: string): Promise<DecisionRecord> {
    return unwrap(await this.api.GET("/api/trust/decisions/{decisionId}", { params: { path: { decisionId } } }));
  }

  /** GET /api/trust/sources?sourceId=: what Credence knows of a source, without deciding (scope trust:read). */
  async source(sourceId: string): Promise<SourceMetadata> {
    return unwrap(await this.api.GET("/api/trust/sources", { params: { query: { sourceId } } }));
  }

  /** POST /api/trust/usage: what was done with the sources of a decision (scope trust:usage). */
  async recordUsage(usage: UsageRequest): Promise<UsageAnswer> {
    return unwrap(await this.api.POST("/api/trust/usage", { body: usage }));
  }

  /** GET /api/trust/whoami: what the credential is (tenant, key, app, scopes, expiry). */
  async whoami(): Promise<WhoAmI> {
    return unwrap(await this.api.GET("/api/trust/whoami"));
  }

  /**
   * Asks about retrieved candidates in one filter-sources request per 100
   * distinct source ids (one for any ordinary retrieval), and sorts them
   * into kept (allowed, warned) and blocked; candidates for which
   * `sourceIdOf` answers nothing are `unidentified`. Any failure raises:
   * nothing is kept unchecked.
   */
  filterCandidates<T>(
    items: readonly T[],
    sourceIdOf: (item: T) => string | null | undefined,
    context?: TrustContext,
  ): Promise<FilteredCandidates<T>> {
    return filterCandidates((sources, ctx) => this.filterSources(sources, ctx), items, sourceIdOf, context);
  }
}

export function createCredenceClient(options: CredenceClientOptions): CredenceClient {
  return new CredenceClient(options);
}

