// Bulk renewal of selected entries (POST /api/notifications/bulk-renew):
// one entry per request, in turn, so a progress bar can move as each
// renews, and each entry's result (new expiry date, or why not) is shown.
import { useState } from "react";
import { call, Problem } from "../../api/client";
import { format } from "../../i18n";
import { Progress } from "../../ui";
import { eachInTurn, useDates, type BulkRenewResult } from "./api";
import { useS } from "./strings";

export interface RenewTarget {
  entryId: string;
  title: string;
}

export function RenewPanel({
  selected,
  onDone,
  afterEach,
  extra,
}: {
  selected: RenewTarget[];
  // Called once every entry has been tried (the page reloads its list).
  onDone: () => void;
  // Called after an entry renewed (e.g. acknowledge its notifications).
  afterEach?: (entryId: string) => Promise<void>;
  extra?: React.ReactNode;
}) {
  const s = useS();
  const dates = useDates();
  const [days, setDays] = useState("");
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<{ target: RenewTarget; result?: BulkRenewResult; error?: unknown }[]>([]);
  const running = progress !== null && progress.done < progress.total;

  async function renew() {
    const targets = [...selected];
    const custom = days.trim() ? Number(days) : undefined;
    setResults([]);
    setProgress({ done: 0, total: targets.length });
    const collected: typeof results = [];
    let i = 0;
    await eachInTurn(
      targets,
      async (target) => {
        const answer = await call("post", "/api/notifications/bulk-renew", {
          body: { entryIds: [target.entryId], customExpiryDays: custom ?? null },
        });
        const result = answer.results[0];
        if (result?.renewed && afterEach) await afterEach(target.entryId);
        return result;
      },
      (done, result, error) => {
        collected.push({ target: targets[i++], result, error });
        setResults([...collected]);
        setProgress({ done, total: targets.length });
      },
    );
    onDone();
  }

  const ok = results.filter((r) => r.result?.renewed).length;
  return (
    <section className="renew-panel" aria-label={format(s.renewSelected, { n: selected.length })}>
      <div className="toolbar-row">
        <label>
          {s.renewDays}
          <input
            type="number"
            name="customExpiryDays"
            min={1}
            max={3650}
            value={days}
            onChange={(e) => setDays(e.target.value)}
          />
        </label>
        {extra}
        <button type="button" className="primary" disabled={selected.length === 0 || running} onClick={renew}>
          {format(s.renewSelected, { n: selected.length })}
        </button>
      </div>
      {progress && (
        <Progress
          label={
            running
              ? format(s.renewing, { done: progress.done, total: progress.total })
              : format(s.renewDone, { ok, failed: results.length - ok })
          }
          value={progress.done}
          max={progress.total}
        />
      )}
      {results.length > 0 && (
        <>
          <h2 className="results-title">{s.renewResults}</h2>
          <ul className="renew-results">
            {results.map(({ target, result, error }) => {
              const renewed = !!result?.renewed;
              const detail = result?.error
                ? `${result.error.detail}${result.error.blockers?.length ? ` (${format(s.blockers, { list: result.error.blockers.join(", ") })})` : ""}`
                : error instanceof Problem
                  ? `${error.title}: ${error.detail}`
                  : String(error ?? "");
              return (
                <li
                  key={target.entryId}
                  className={renewed ? "renewed" : "failed"}
                  data-renew-entry={target.entryId}
                  data-renewed={renewed ? "true" : "false"}
                >
                  <strong>{target.title}</strong>:{" "}
                  {renewed
                    ? format(s.renewedUntil, { date: dates.day(result?.expiryDate) })
                    : format(s.notRenewed, { detail })}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
