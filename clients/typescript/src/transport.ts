// What every request goes through, under the generated client: the
// credential, a time limit per attempt, retries of 429 and 503 as
// `Retry-After` says, and one token refresh after a 401. openapi-fetch calls
// `send` with a finished Request, so this layer sees every route alike.
import { CredenceNetworkError, TokenError, errorFromResponse } from "./errors.js";
import { backoffMs, defaultRetry, retryAfterMs, sleep, type RetryOptions } from "./retry.js";

export type FetchFunction = (request: Request) => Promise<Response>;

/** OAuth 2.0 client credentials: an API key's client id and secret, exchanged at the token endpoint. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** A subset of the key's scopes; default all of them. */
  scope?: string | readonly string[];
  /** Default `<baseUrl>/connect/token`. */
  tokenUrl?: string;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  clientCredentials?: ClientCredentials | undefined;
  accessToken?: string | undefined;
  retry?: RetryOptions | false | undefined;
  timeoutMs?: number | undefined;
  fetch?: FetchFunction | undefined;
  headers?: Record<string, string> | undefined;
}

// The request each answer was made for, so that an error can name it.
const requests = new WeakMap<Response, Request>();

export function requestOf(response: Response): Request | undefined {
  return requests.get(response);
}

async function discard(response: Response): Promise<void> {
  // An unread body would keep its connection from being reused.
  await response.body?.cancel().catch(() => {});
}

function formEncode(value: string): string {
  // RFC 6749 section 2.3.1: the client id and secret are form-urlencoded before Basic.
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/**
 * Access tokens from the client-credentials grant (docs/credentials.md, "The
 * token endpoint"). One token is shared by every request and replaced before
 * it expires: a quarter of its lifetime early, at most a minute, so a request
 * never leaves with a token about to lapse. Concurrent requests that find no
 * valid token wait for one token request together.
 */
class TokenSource {
  private token: { value: string; refreshAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly credentials: ClientCredentials,
    private readonly tokenUrl: string,
    private readonly post: (request: Request) => Promise<Response>,
  ) {}

  current(): Promise<string> {
    if (this.token && Date.now() < this.token.refreshAt) return Promise.resolve(this.token.value);
    this.pending ??= this.request().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Forgets `value` (the server refused it), unless a newer token replaced it already. */
  invalidate(value: string): void {
    if (this.token?.value === value) this.token = undefined;
  }

  private async request(): Promise<string> {
    const { clientId, clientSecret, scope } = this.credentials;
    const body = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope !== undefined) body.set("scope", typeof scope === "string" ? scope : scope.join(" "));
    const basic = Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString("base64");
    const startedAt = Date.now();
    const response = await this.post(
      new Request(this.tokenUrl, {
        method: "POST",
        headers: {
          authorization: `Basic ${basic}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body,
      }),
    );
    const text = await response.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {}
    const answer = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
    if (!response.ok) {
      // The endpoint answers RFC 6749 errors; what a proxy or the router says (429, 503) is problem+json.
      if (typeof answer.error === "string") {
        const description = typeof answer.error_description === "string" ? answer.error_description : undefined;
        throw new TokenError(response.status, answer.error, description);
      }
      throw errorFromResponse("POST", this.tokenUrl, response, json);
    }
    const value = answer.access_token;
    const expiresIn = answer.expires_in;
    if (typeof value !== "string" || typeof expiresIn !== "number") {
      throw new TokenError(response.status, "invalid_response", "no access_token and expires_in in the answer");
    }
    const lifetime = expiresIn * 1000;
    this.token = { value, refreshAt: startedAt + lifetime - Math.min(60_000, lifetime / 4) };
    return value;
  }
}

export class Transport {
  private readonly fetch: FetchFunction;
  private readonly retry: Required<RetryOptions>;
  private readonly timeoutMs: number;
  private readonly tokens: TokenSource | undefined;

  constructor(private readonly options: TransportOptions) {
    this.fetch = options.fetch ?? ((request) => globalThis.fetch(request));
    this.retry = options.retry === false ? { ...defaultRetry, maxRetries: 0 } : { ...defaultRetry, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
    const credentials = options.clientCredentials;
    if (credentials) {
      const tokenUrl = credentials.tokenUrl ?? `${options.baseUrl}/connect/token`;
      this.tokens = new TokenSource(credentials, tokenUrl, (request) => this.withRetries(request, undefined));
    }
  }

  /** Sends `request` with the credential; the answer, whatever its status (errors are the caller's to raise). */
  async send(request: Request): Promise<Response> {
    let token = await this.tokens?.current();
    let response = await this.withRetries(request, token);
    // A token can stop working before its expiry as this side counts it (a
    // server whose clock runs ahead, a signing key replaced): ask for a new
    // one once. A refusal of the credentials themselves is a TokenError.
    if (response.status === 401 && this.tokens && token !== undefined) {
      await discard(response);
      this.tokens.invalidate(token);
      token = await this.tokens.current();
      response = await this.withRetries(request, token);
    }
    requests.set(response, request);
    return response;
  }

  private async withRetries(request: Request, token: string | undefined): Promise<Response> {
    // Read once, so each attempt sends the same bytes.
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.clone().arrayBuffer();
    for (let attempt = 0; ; attempt++) {
      const response = await this.once(request, body, token);
      if ((response.status !== 429 && response.status !== 503) || attempt >= this.retry.maxRetries) return response;
      const wait = retryAfterMs(response.headers.get("retry-after")) ?? backoffMs(attempt, this.retry);
      if (wait > this.retry.maxDelayMs) return response;
      await discard(response);
      await sleep(wait, request.signal);
    }
  }

  private async once(request: Request, body: ArrayBuffer | undefined, token: string | undefined): Promise<Response> {
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(this.options.headers ?? {})) headers.set(name, value);
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    else if (this.options.accessToken !== undefined) headers.set("authorization", `Bearer ${this.options.accessToken}`);
    else if (this.options.apiKey !== undefined && !headers.has("authorization")) headers.set("x-api-key", this.options.apiKey);
    const signal = this.timeoutMs > 0 ? AbortSignal.any([request.signal, AbortSignal.timeout(this.timeoutMs)]) : request.signal;
    try {
      return await this.fetch(new Request(request.url, { method: request.method, headers, body: body ?? null, signal, redirect: "manual" }));
    } catch (error) {
      // The caller's own abort stays an AbortError.
      if (request.signal.aborted) throw error;
      throw new CredenceNetworkError(request.method, request.url, error);
    }
  }
}
