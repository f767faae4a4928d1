// My expiry dashboard (the entries I own by expiry state, their deadlines,
// my expired entries, renewing selected ones) and the tenant summary
// (per-hub expiry counts).
import { useState } from "react";
import { call } from "../../api/client";
import { format } from "../../i18n";
import type { PageProps } from "../../shell/area";
import { EmptyState, ErrorBox, Link, Loading, StatusBadge, useLoad, useStableLoad } from "../../ui";
import {useDates, type ExpiryCounts, type UpcomingRow } from "./api";
import { StackedBars } from "../../charts/StackedBars";
import { STATES, type StateKey } from "./states";
import { RenewPanel, type RenewTarget } from "./Renew";
import { useS } from "./strings";
import "./work.css";

function useStateNames(): Record<StateKey, string> {
  const s = useS();
  return { draft: s.draft, published: s.published, expiringSoon: s.expiringSoon, warning: s.warning, expired: s.expired };
}

function Counts({ counts }: { counts: ExpiryCounts }) {
  const s = useS();
  const names = useStateNames();
  const cards: [string, string, number][] = [
    ["total", s.total, counts.total],
    ...STATES.map((k): [string, string, number] => [k, names[k], counts[k]]),
    ["paused", s.paused, counts.paused],
  ];
  return (
    <ul className="stat-cards">
      {cards.map(([key, label, value]) => (
        <li key={key} data-count={key}>
          <span className="value">{value}</span> <span className="label">{label}</span>
        </li>
      ))}
    </ul>
  );
}

function Days({ n }: { n: number }) {
  const s = useS();
  return <>{n >= 0 ? format(s.daysLeftN, { n }) : format(s.daysPast, { n: -n })}</>;
}

// Entries with their expiry status (the dashboards' row shape), each with a
// checkbox to select it for renewal.
function ExpiryTable({
  rows,
  check,
  className,
}: {
  rows: UpcomingRow[];
  check: (target: RenewTarget) => React.ReactNode;
  className: string;
}) {
  const s = useS();
  const dates = useDates();
  return (
    <div className="table-wrap">
      <table className={className}>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">{s.selectAll}</span>
            </th>
            <th scope="col">{s.entry}</th>
            <th scope="col">{s.hub}</th>
            <th scope="col">{s.status}</th>
            <th scope="col">{s.expiryDate}</th>
            <th scope="col">{s.daysLeft}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.entryId} data-entry-id={row.entryId} data-entry-key={row.key} data-status={row.status}>
              <td>{check({ entryId: row.entryId, title: row.title })}</td>
              <td>
                <Link to={`/entries/${row.entryId}`}>{row.title}</Link>
              </td>
              <td>
                <Link to={`/summary/hubs/${encodeURIComponent(row.hubKey)}`}>{row.hubKey}</Link>
              </td>
              <td>
                <StatusBadge status={row.status} /> {row.isPaused && <span className="hint">({s.pausedYes})</span>}
              </td>
              <td>{dates.day(row.expiryDate)}</td>
              <td>{row.status === "Draft" ? "" : <Days n={row.daysUntilExpiry} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// Selection of entries to renew, by id.
function useSelection() {
  const s = useS();
  const [selected, setSelected] = useState<Map<string, RenewTarget>>(new Map());
  const toggle = (target: RenewTarget, on: boolean) =>
    setSelected((m) => {
      const next = new Map(m);
      if (on) next.set(target.entryId, target);
      else next.delete(target.entryId);
      return next;
    });
  const check = (target: RenewTarget) => (
    <input
      type="checkbox"
      checked={selected.has(target.entryId)}
      onChange={(e) => toggle(target, e.target.checked)}
      aria-label={format(s.select, { title: target.title })}
    />
  );
  return { selected: [...selected.values()], check, clear: () => setSelected(new Map()) };
}

export function MyExpiryPage({ me }: PageProps) {
  const s = useS();
  const dates = useDates();
  const names = useStateNames();
  const [version, setVersion] = useState(0);
  const dashboard = useStableLoad(() => call("get", "/api/expiry-dashboard/me"), [version]);
  const expired = useStableLoad(() => call("get", "/api/entries/expired"), [version]);
  const selection = useSelection();
  const check = selection.check;
  const mine = (expired.data ?? []).filter((e) => e.ownerId === me.id);

  return (
    <main className="work-page">
      <h1>{s.myExpiry}</h1>
      <p>{s.myExpiryIntro}</p>
      <ErrorBox error={dashboard.error ?? expired.error} />
      {dashboard.loading && !dashboard.data && <Loading />}
      {dashboard.data && (
        <>
          <Counts counts={dashboard.data.counts} />
          {dashboard.data.counts.total > 0 && (
            <StackedBars
              keys={STATES}
              title={s.countsChart}
              names={names}
              items={[{ label: s.total, counts: dashboard.data.counts }]}
            />
          )}
          <h2>{s.upcoming}</h2>
          {dashboard.data.upcoming.length === 0 ? (
            <EmptyState>{s.noUpcoming}</EmptyState>
          ) : (
            <ExpiryTable rows={dashboard.data.upcoming} check={check} className="upcoming" />
          )}
          <h2>{s.myExpired}</h2>
          {expired.data && mine.length === 0 && <EmptyState>{s.noExpired}</EmptyState>}
          {mine.length > 0 && (
            <div className="table-wrap">
              <table className="expired">
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="visually-hidden">{s.selectAll}</span>
                    </th>
                    <th scope="col">{s.entry}</th>
                    <th scope="col">{s.hub}</th>
                    <th scope="col">{s.expiryDate}</th>
                  </tr>
                </thead>
                <tbody>
                  {mine.map((e) => (
                    <tr key={e.id} data-entry-id={e.id} data-entry-key={e.key}>
                      <td>{check({ entryId: e.id, title: e.title })}</td>
                      <td>
                        <Link to={`/entries/${e.id}`}>{e.title}</Link>
                      </td>
                      <td>{e.hubKey}</td>
                      <td>{dates.day(e.expiryDate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {(dashboard.data.upcoming.length > 0 || mine.length > 0) && (
            <RenewPanel
              selected={selection.selected}
              onDone={() => {
                selection.clear();
                setVersion((v) => v + 1);
              }}
            />
          )}
        </>
      )}
    </main>
  );
}

export function SummaryPage() {
  const s = useS();
  const names = useStateNames();
  const summary = useLoad(() => call("get", "/api/expiry-dashboard/summary"), []);
  const data = summary.data;
  return (
    <main className="work-page">
      <h1>{s.summary}</h1>
      <p>{s.summaryIntro}</p>
      <ErrorBox error={summary.error} />
      {summary.loading && <Loading />}
      {data && (
        <>
          <Counts counts={data.totals} />
          {data.hubs.length === 0 ? (
            <EmptyState>{s.noHubs}</EmptyState>
          ) : (
            <>
              <StackedBars
              keys={STATES}
                title={s.summaryChart}
                names={names}
                items={data.hubs.map((h) => ({ label: h.hubName, counts: h.counts }))}
              />
              <div className="table-wrap">
                <table className="summary">
                  <thead>
                    <tr>
                      <th scope="col">{s.hub}</th>
                      <th scope="col">{s.total}</th>
                      {STATES.map((k) => (
                        <th scope="col" key={k}>
                          {names[k]}
                        </th>
                      ))}
                      <th scope="col">{s.paused}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.hubs.map((h) => (
                      <tr key={h.hubId} data-hub-key={h.hubKey}>
                        <th scope="row">
                          <Link to={`/summary/hubs/${encodeURIComponent(h.hubKey)}`}>{h.hubName}</Link>
                        </th>
                        <td data-count="total">{h.counts.total}</td>
                        {STATES.map((k) => (
                          <td key={k} data-count={k}>
                            {h.counts[k]}
                          </td>
                        ))}
                        <td data-count="paused">{h.counts.paused}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </>
      )}
    </main>
  );
}

// One hub's entries by expiry status, soonest first (hub Viewer+), with
// renewal of selected entries.
export function SummaryHubPage({ params }: PageProps) {
  const hubKey = params.hubKey;
  const s = useS();
  const [version, setVersion] = useState(0);
  const hub = useLoad(() => call("get", "/api/hubs/{key}", { params: { key: hubKey } }), [hubKey]);
  const rows = useStableLoad(
    () => call("get", "/api/expiry-dashboard/hubs/{hubKey}/entries", { params: { hubKey } }),
    [hubKey, version],
  );
  const selection = useSelection();
  return (
    <main className="work-page">
      <p>
        <Link to="/summary">← {s.summary}</Link>
      </p>
      <h1>{format(s.hubExpiry, { hub: hub.data?.name ?? hubKey })}</h1>
      <ErrorBox error={hub.error ?? rows.error} />
      {rows.loading && !rows.data && <Loading />}
      {rows.data && rows.data.length === 0 && <EmptyState>{s.noHubEntries}</EmptyState>}
      {rows.data && rows.data.length > 0 && (
        <>
          <ExpiryTable rows={rows.data} check={selection.check} className="hub-expiry" />
          <RenewPanel
            selected={selection.selected}
            onDone={() => {
              selection.clear();
              setVersion((v) => v + 1);
            }}
          />
        </>
      )}
    </main>
  );
}
