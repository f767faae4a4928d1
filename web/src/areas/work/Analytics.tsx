// Reading analytics: the most read entries and reads per hub (from the
// per-entry summaries: the server has no tenant-wide ranking, so the page
// counts over the first entries the caller can view), inactive entries
// (GET /api/analytics/inactive?days=) and the stale or expiring entries per
// hub (the expiry summary). Charts are hand-written SVG (charts.tsx).
import { useEffect, useState } from "react";
import { call } from "../../api/client";
import { format } from "../../i18n";
import { EmptyState, ErrorBox, Link, Loading, Progress, useLoad } from "../../ui";
import { useDates, type EntrySummary } from "./api";
import { BarChart } from "../../charts/BarChart";
import { StackedBars } from "../../charts/StackedBars";
import { STATES, type StateKey } from "./states";
import { useS } from "./strings";
import "./work.css";

// How many entries the page sums reads over, and how many requests at once.
const SAMPLE = 100;
const PARALLEL = 4;

interface Counted {
  id: string;
  title: string;
  hubKey: string;
  hubName: string;
  summary: EntrySummary;
}

function useReadCounts() {
  const [state, setState] = useState<{ done: number; total: number; rows: Counted[]; error?: unknown; finished: boolean }>({
    done: 0,
    total: 0,
    rows: [],
    finished: false,
  });
  useEffect(() => {
    let live = true;
    (async () => {
      const hubs = await call("get", "/api/hubs");
      const entries: { id: string; title: string; hubKey: string; hubName: string }[] = [];
      for (const hub of hubs) {
        if (entries.length >= SAMPLE) break;
        const list = await call("get", "/api/entries/hubs/{hubKey}", { params: { hubKey: hub.key } });
        for (const e of list) if (entries.length < SAMPLE) entries.push({ id: e.id, title: e.title, hubKey: hub.key, hubName: hub.name });
      }
      if (!live) return;
      setState({ done: 0, total: entries.length, rows: [], finished: entries.length === 0 });
      const rows: Counted[] = [];
      let next = 0;
      let done = 0;
      const worker = async () => {
        while (live && next < entries.length) {
          const e = entries[next++];
          const summary = await call("get", "/api/analytics/entries/{id}/summary", { params: { id: e.id } });
          rows.push({ ...e, summary });
          done++;
          if (live) setState({ done, total: entries.length, rows: [...rows], finished: done === entries.length });
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    })().catch((error) => live && setState((s) => ({ ...s, error, finished: true })));
    return () => {
      live = false;
    };
  }, []);
  return state;
}

function InactiveSection() {
  const s = useS();
  const dates = useDates();
  const [days, setDays] = useState("90");
  const inactive = useLoad(() => call("get", "/api/analytics/inactive", { query: { days } }), [days]);
  return (
    <section aria-labelledby="inactive-title">
      <h2 id="inactive-title">{s.inactive}</h2>
      <div className="toolbar-row">
        <label>
          {s.inactiveDays}
          <select name="inactiveDays" value={days} onChange={(e) => setDays(e.target.value)}>
            {["30", "90", "180", "365"].map((d) => (
              <option key={d} value={d}>
                {format(s.daysN, { n: d })}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p>{format(s.inactiveIntro, { days })}</p>
      <ErrorBox error={inactive.error} />
      {inactive.loading && <Loading />}
      {inactive.data && inactive.data.entries.length === 0 && <EmptyState>{s.noInactive}</EmptyState>}
      {inactive.data && inactive.data.entries.length > 0 && (
        <div className="table-wrap">
          <table className="inactive">
            <thead>
              <tr>
                <th scope="col">{s.entry}</th>
                <th scope="col">{s.hub}</th>
                <th scope="col">{s.created}</th>
                <th scope="col">{s.lastRead}</th>
              </tr>
            </thead>
            <tbody>
              {inactive.data.entries.map((e) => (
                <tr key={e.id} data-entry-id={e.id}>
                  <td>
                    <Link to={`/entries/${e.id}`}>{e.title}</Link>
                  </td>
                  <td>{e.hubKey}</td>
                  <td>{dates.day(e.createdAt)}</td>
                  <td>{e.lastReadAt ? dates.time(e.lastReadAt) : s.never}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function AnalyticsPage() {
  const s = useS();
  const dates = useDates();
  const counts = useReadCounts();
  const summary = useLoad(() => call("get", "/api/expiry-dashboard/summary"), []);
  const top = [...counts.rows].sort((a, b) => b.summary.totalReads - a.summary.totalReads || a.title.localeCompare(b.title));
  const perHub = new Map<string, { name: string; reads: number }>();
  for (const r of counts.rows) {
    const h = perHub.get(r.hubKey) ?? { name: r.hubName, reads: 0 };
    h.reads += r.summary.totalReads;
    perHub.set(r.hubKey, h);
  }
  const hubRows = [...perHub.entries()].sort((a, b) => b[1].reads - a[1].reads);
  const names: Record<StateKey, string> = {
    draft: s.draft,
    published: s.published,
    expiringSoon: s.expiringSoon,
    warning: s.warning,
    expired: s.expired,
  };
  const attention = (summary.data?.hubs ?? []).filter((h) => h.counts.expiringSoon + h.counts.warning + h.counts.expired > 0);

  return (
    <main className="work-page">
      <h1>{s.analytics}</h1>
      <p>{s.analyticsIntro}</p>

      <section aria-labelledby="top-title">
        <h2 id="top-title">{s.topEntries}</h2>
        <ErrorBox error={counts.error} />
        {!counts.finished && (
          <Progress
            label={format(s.loadingCounts, { done: counts.done, total: counts.total })}
            value={counts.total ? counts.done : undefined}
            max={counts.total || undefined}
          />
        )}
        {counts.finished && counts.rows.length === 0 && !counts.error && <EmptyState>{s.noReads}</EmptyState>}
        {counts.finished && counts.rows.length > 0 && (
          <>
            <p className="hint">{format(s.sampled, { n: SAMPLE })}</p>
            <BarChart title={s.topChart} bars={top.slice(0, 10).map((r) => ({ label: r.title, value: r.summary.totalReads }))} />
            <div className="table-wrap">
              <table className="top-entries">
                <thead>
                  <tr>
                    <th scope="col">{s.entry}</th>
                    <th scope="col">{s.hub}</th>
                    <th scope="col">{s.reads}</th>
                    <th scope="col">{s.editors}</th>
                    <th scope="col">{s.edits}</th>
                    <th scope="col">{s.lastRead}</th>
                  </tr>
                </thead>
                <tbody>
                  {top.slice(0, 20).map((r) => (
                    <tr key={r.id} data-entry-id={r.id} data-reads={r.summary.totalReads}>
                      <td>
                        <Link to={`/entries/${r.id}`}>{r.title}</Link>
                      </td>
                      <td>{r.hubKey}</td>
                      <td>{r.summary.totalReads}</td>
                      <td>{r.summary.uniqueEditors}</td>
                      <td>{r.summary.totalEdits}</td>
                      <td>{r.summary.lastReadAt ? dates.time(r.summary.lastReadAt) : s.never}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h2>{s.hubReads}</h2>
            <BarChart title={s.hubReadsChart} bars={hubRows.map(([, h]) => ({ label: h.name, value: h.reads }))} />
            <div className="table-wrap">
              <table className="hub-reads">
                <thead>
                  <tr>
                    <th scope="col">{s.hub}</th>
                    <th scope="col">{s.reads}</th>
                  </tr>
                </thead>
                <tbody>
                  {hubRows.map(([key, h]) => (
                    <tr key={key} data-hub-key={key}>
                      <td>{h.name}</td>
                      <td>{h.reads}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>

      <section aria-labelledby="attention-title">
        <h2 id="attention-title">{s.attention}</h2>
        <p>{s.attentionIntro}</p>
        <ErrorBox error={summary.error} />
        {summary.loading && <Loading />}
        {summary.data && attention.length === 0 && <EmptyState>{s.noUpcoming}</EmptyState>}
        {attention.length > 0 && (
          <StackedBars
            keys={STATES}
            title={s.attention}
            names={names}
            items={attention.map((h) => ({
              label: h.hubName,
              counts: { ...h.counts, draft: 0, published: 0 },
            }))}
          />
        )}
      </section>

      <InactiveSection />
    </main>
  );
}
