// The work area's API shapes (generated types, src/api/schema.d.ts) and
// small helpers its pages share.
import type { Answer } from "../../api/client";
import { Problem, session } from "../../api/client";
import type { paths } from "../../api/schema";
import { useRef } from "react";
import { useUiLanguage } from "../../i18n";
import { useLoad } from "../../ui";

export type TranslationSummary = Answer<"/api/entries/{entryId}/translations", "get">[number];
export type FullTranslation = Answer<"/api/entries/{entryId}/translations/{language}", "get">;
export type TenantLanguage = Answer<"/api/admin/languages/enabled", "get">[number];
export type MyExpiry = Answer<"/api/expiry-dashboard/me", "get">;
export type ExpiryCounts = MyExpiry["counts"];
export type UpcomingRow = MyExpiry["upcoming"][number];
export type ExpirySummary = Answer<"/api/expiry-dashboard/summary", "get">;
export type ExpiryWarning = Answer<"/api/notifications/expiry-warnings", "get">[number];
export type BulkRenewResult = Answer<"/api/notifications/bulk-renew", "post">["results"][number];
export type EntrySummary = Answer<"/api/analytics/entries/{id}/summary", "get">;
export type InactiveEntries = Answer<"/api/analytics/inactive", "get">;

// Dates as the UI language writes them (day precision for expiry dates).
export function useDates() {
  const lang = useUiLanguage();
  const day = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });
  const time = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  return {
    day: (iso: string | null | undefined) => (iso ? day.format(new Date(iso)) : ""),
    time: (iso: string | null | undefined) => (iso ? time.format(new Date(iso)) : ""),
  };
}

// A language code's name in the UI language ("es" -> "Spanish"), else the code.
export function useLanguageName() {
  const lang = useUiLanguage();
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([lang], { type: "language" });
  } catch {
    names = null;
  }
  return (code: string) => {
    try {
      return names?.of(code) ?? code;
    } catch {
      return code;
    }
  };
}

// Runs `work` on each item in turn (not at once: the server's per-request
// work stays small and the progress is honest), reporting after each.
export async function eachInTurn<T, R>(
  items: T[],
  work: (item: T) => Promise<R>,
  onProgress: (done: number, result: R | undefined, error: unknown) => void,
): Promise<void> {
  let done = 0;
  for (const item of items) {
    try {
      const r = await work(item);
      done++;
      onProgress(done, r, undefined);
    } catch (e) {
      done++;
      onProgress(done, undefined, e);
    }
  }
}

// Whether machine translation was found unavailable on this server in this
// session (the server has no capability endpoint; the first 400
// auto_translation_unavailable tells, docs/web-client.md).
const MT_KEY = "credence.mtUnavailable";
export const mtAvailability = {
  get unavailable(): boolean {
    return sessionStorage.getItem(MT_KEY) === "1";
  },
  markUnavailable() {
    sessionStorage.setItem(MT_KEY, "1");
  },
};

// call() of src/api/client.ts fills path parameters but sends no query
// string; these routes need one (?language=, ?days=). Same headers, errors
// (Problem) and answer types.

type Method = "get" | "post" | "put" | "patch" | "delete";
export async function callWithQuery<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  params: Record<string, string>,
  query: Record<string, string>,
  body?: unknown,
): Promise<Answer<P, M>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const url =
    (path as string).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? "")) +
    "?" +
    new URLSearchParams(query).toString();
  let response: Response;
  try {
    response = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new Problem(0, "Network error", e instanceof Error ? e.message : String(e));
  }
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  if (!response.ok) {
    const p = (json ?? {}) as { title?: string; detail?: string; code?: string };
    throw new Problem(response.status, p.title ?? response.statusText, p.detail ?? text.slice(0, 300), p.code);
  }
  return json as Answer<P, M>;
}

export type EntryAnswer = Answer<"/api/entries/{id}", "get">;

// The entry's original: GET /api/entries/{id} answers the ?language=
// translation (default en) when there is one, so ask again in the original
// language when the first answer was a translation.
export async function loadOriginal(entryId: string): Promise<EntryAnswer> {
  const first = await callWithQuery("get", "/api/entries/{id}", { id: entryId }, {});
  if (!first.isTranslation) return first;
  return callWithQuery("get", "/api/entries/{id}", { id: entryId }, { language: first.originalLanguage });
}

// useLoad that keeps showing the previous answer while it loads again (after
// a save or an acknowledgement), so the page does not flash empty and the
// focused control stays where it was.
export function useReload<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: unknown; loading: boolean } {
  const state = useLoad(load, deps);
  const last = useRef<T | undefined>(undefined);
  if (state.data !== undefined) last.current = state.data;
  if (state.error !== undefined) last.current = undefined;
  return state.loading ? { ...state, data: last.current } : state;
}
