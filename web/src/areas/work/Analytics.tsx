// Reading analytics: the most read entries of a window of days and reads per
// hub (GET /api/analytics/top), inactive entries (GET
// /api/analytics/inactive?days=) and the stale or expiring entries per hub
// (the expiry summary). Charts are hand-written SVG (src/charts).
import { useState } from "react";
import { call } from "../../api/client";
import { format } from "../../i18n";
import { EmptyState, ErrorBox, Link, Loading, useLoad } from "../../ui";
import { useDates } from "./api";
import { BarChart } from "../../charts/BarChart";
import { StackedBars } from "../../charts/StackedBars";
import { STATES, type StateKey } from "./states";
import { useS } from "./strings";
import "./work.css";

// The ranking asked for: the chart shows the first 10, the table 20, and
// reads per hub add up all of them.
const RANKED = 100;

// A window of days to choose.
function DaysChoice(props: { label: string; name: string; choices: string[]; value: string; onChange: (days: string) => void }) {
  const s = useS();
  return (
    <div className="toolbar-row">
      <label>
        {props.label}{" "}
        <select name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          {props.choices.map((d) => (
            <option key={d} value={d}>
              {format(s.daysN, { n: d })}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function InactiveSection() {
  const s = useS();
  const dates = useDates();
  const [days, setDays] = useState("90");
  const inactive = useLoad(() => call("get", "/api/analytics/inactive", { query: { days } }), [days]);
  return (
    <section aria-labelledby="inactive-title">
      <h2 id="inactive-title">{s.inactive}</h2>
      <DaysChoice label={s.inactiveDays} name="inactiveDays" choices={["30", "90", "180", "365"]} value={days} onChange={setDays} />
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
  const [days, setDays] = useState("30");
  const ranked = useLoad(() => call("get", "/api/analytics/top", { query: { days, limit: RANKED } }), [days]);
  const hubs = useLoad(() => call("get", "/api/hubs"), []);
  const summary = useLoad(() => call("get", "/api/expiry-dashboard/summary"), []);
  const top = ranked.data?.entries ?? [];
  const hubName = (key: string) => hubs.data?.find((h) => h.key === key)?.name ?? key;
  const perHub = new Map<string, number>();
  for (const r of top) perHub.set(r.hubKey, (perHub.get(r.hubKey) ?? 0) + r.reads);
  const hubRows = [...perHub.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
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
        <DaysChoice label={s.readWindow} name="readWindow" choices={["7", "30", "90", "365"]} value={days} onChange={setDays} />
        <ErrorBox error={ranked.error} />
        {ranked.loading && <Loading />}
        {ranked.data && top.length === 0 && <EmptyState>{s.noReads}</EmptyState>}
        {top.length > 0 && (
          <>
            <BarChart title={s.topChart} bars={top.slice(0, 10).map((r) => ({ label: r.title, value: r.reads }))} />
            <div className="table-wrap">
              <table className="top-entries">
                <thead>
                  <tr>
                    <th scope="col">{s.entry}</th>
                    <th scope="col">{s.hub}</th>
                    <th scope="col">{s.reads}</th>
                    <th scope="col">{s.timeSpent}</th>
                  </tr>
                </thead>
                <tbody>
                  {top.slice(0, 20).map((r) => (
                    <tr key={r.id} data-entry-id={r.id} data-reads={r.reads}>
                      <td>
                        <Link to={`/entries/${r.id}`}>{r.title}</Link>
                      </td>
                      <td>{hubName(r.hubKey)}</td>
                      <td>{r.reads}</td>
                      <td>{format(s.minutes, { n: Math.round(r.timeSpentSeconds / 60) })}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h2>{s.hubReads}</h2>
            <BarChart title={s.hubReadsChart} bars={hubRows.map(([key, reads]) => ({ label: hubName(key), value: reads }))} />
            <div className="table-wrap">
              <table className="hub-reads">
                <thead>
                  <tr>
                    <th scope="col">{s.hub}</th>
                    <th scope="col">{s.reads}</th>
                  </tr>
                </thead>
                <tbody>
                  {hubRows.map(([key, reads]) => (
                    <tr key={key} data-hub-key={key}>
                      <td>{hubName(key)}</td>
                      <td>{reads}</td>
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
