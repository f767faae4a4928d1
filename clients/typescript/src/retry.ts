/** How 429 and 503 answers are retried. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /**
   * The longest wait before a retry (default 30 000 ms). An answer whose
   * `Retry-After` asks for longer is not retried but raised at once, with
   * `retryAfterMs` set, so a caller is never held longer than it allowed.
   */
  maxDelayMs?: number;
  /** Without `Retry-After`: the first wait, doubled each retry, with full jitter (default 500 ms). */
  baseDelayMs?: number;
}

export const defaultRetry: Required<RetryOptions> = { maxRetries: 3, maxDelayMs: 30_000, baseDelayMs: 500 };

/**
 * `Retry-After` (RFC 9110 section 10.2.3) in milliseconds from `now`: delay
 * seconds, or an HTTP date (a date in the past is 0). Undefined when absent
 * or not one of the two forms.
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only the IMF-fixdate and the two obsolete forms are HTTP dates; Date.parse
  // would also take "1" or "2026" as a date.
  if (!/[a-z]{3},? .*\d{2}:\d{2}:\d{2}/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before retry `attempt` (0-based) when the server named none. */
export function backoffMs(attempt: number, options: Required<RetryOptions>): number {
  return Math.random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
}

export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
