// The work area's API shapes (generated types, src/api/schema.d.ts) and
// small helpers its pages share.
import { call, type Answer } from "../../api/client";
import { useEffect, useState } from "react";
import { useUiLanguage } from "../../i18n";

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

// Whether this server machine-translates (GET /api/machine-translation,
// asked once per page load); a refusal (400 auto_translation_unavailable)
// settles it too.
let machineTranslation: Promise<boolean> | null = null;
export const mtAvailability = {
  get available(): Promise<boolean> {
    machineTranslation ??= call("get", "/api/machine-translation").then(
      (r) => r.available,
      () => false,
    );
    return machineTranslation;
  },
  markUnavailable() {
    machineTranslation = Promise.resolve(false);
  },
};

// undefined while asking.
export function useMachineTranslation(): boolean | undefined {
  const [available, setAvailable] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    let live = true;
    mtAvailability.available.then((a) => live && setAvailable(a));
    return () => {
      live = false;
    };
  }, []);
  return available;
}

export type EntryAnswer = Answer<"/api/entries/{id}", "get">;
export { loadOriginal } from "../../api/entries";


