// The signed-in user's expiry notifications: acknowledge one or all (the API
// acknowledges one at a time, so "all" goes through them in turn with a
// progress bar), and renew the entries of selected notifications.
import { useState } from "react";
import { call } from "../../api/client";
import { format } from "../../i18n";
import { EmptyState, ErrorBox, Link, Loading, StatusBadge, useAction, countsChanged, useStableLoad } from "../../ui";
import {useDates, type ExpiryWarning } from "./api";
import { RenewPanel } from "./Renew";
import { useS } from "./strings";
import "./work.css";

export function NotificationsPage() {
  const s = useS();
  const dates = useDates();
  const [version, setVersion] = useState(0);
  const list = useStableLoad(() => call("get", "/api/notifications/expiry-warnings"), [version]);
  const action = useAction();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [alsoAck, setAlsoAck] = useState(true);
  const items = list.data ?? [];
  // One row per notification; renewing works per entry.
  const entries = new Map<string, string>();
  for (const n of items) if (selected.has(n.id)) entries.set(n.entryId, n.entryTitle);
  const reload = () => {
    setVersion((v) => v + 1);
    countsChanged(); // the navigation's unread count
  };

  const acknowledge = (n: ExpiryWarning) =>
    action.run(async () => {
      await call("post", "/api/notifications/{id}/acknowledge", { params: { id: n.id } });
      reload();
    });

  const acknowledgeAll = () =>
    action.run(async () => {
      await call("post", "/api/notifications/acknowledge-all");
      reload();
    });

  // After an entry renewed: acknowledge every listed notification of it.
  const ackEntry = async (entryId: string) => {
    if (!alsoAck) return;
    for (const n of items.filter((x) => x.entryId === entryId))
      await call("post", "/api/notifications/{id}/acknowledge", { params: { id: n.id } });
  };

  const allSelected = items.length > 0 && items.every((n) => selected.has(n.id));
  return (
    <main className="work-page">
      <h1>
        {s.notifications}
        {list.data && list.data.length > 0 && <span className="badge">{format(s.notificationsCount, { n: list.data.length })}</span>}
      </h1>
      <p>{s.notificationsIntro}</p>
      <ErrorBox error={list.error ?? action.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && items.length === 0 && <EmptyState>{s.noNotifications}</EmptyState>}
      {items.length > 0 && (
        <>
          <div className="toolbar-row">
            <button type="button" disabled={action.busy} onClick={acknowledgeAll}>
              {s.acknowledgeAll}
            </button>
          </div>
          <div className="table-wrap">
            <table className="notifications">
              <thead>
                <tr>
                  <th scope="col">
                    <input
                      type="checkbox"
                      checked={allSelected}
                      onChange={(e) => setSelected(e.target.checked ? new Set(items.map((n) => n.id)) : new Set())}
                      aria-label={s.selectAll}
                    />
                  </th>
                  <th scope="col">{s.entry}</th>
                  <th scope="col">{s.kind}</th>
                  <th scope="col">{s.expiryDate}</th>
                  <th scope="col">{s.received}</th>
                  <th scope="col">
                    <span className="visually-hidden">{s.acknowledge}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((n) => (
                  <tr key={n.id} data-notification-id={n.id} data-entry-id={n.entryId} data-kind={n.kind}>
                    <td>
                      <input
                        type="checkbox"
                        checked={selected.has(n.id)}
                        onChange={(e) =>
                          setSelected((set) => {
                            const next = new Set(set);
                            if (e.target.checked) next.add(n.id);
                            else next.delete(n.id);
                            return next;
                          })
                        }
                        aria-label={format(s.select, { title: n.entryTitle })}
                      />
                    </td>
                    <td>
                      <Link to={`/entries/${n.entryId}`}>{n.entryTitle}</Link> <span className="hint">{n.hubKey}</span>
                    </td>
                    <td>
                      <StatusBadge status={n.kind} />
                    </td>
                    <td>{dates.day(n.expiryDate)}</td>
                    <td>{dates.time(n.createdAt)}</td>
                    <td>
                      <button type="button" disabled={action.busy} onClick={() => acknowledge(n)}>
                        {s.acknowledge}
                        <span className="visually-hidden"> {n.entryTitle}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {(items.length > 0 || version > 0) && (
        <RenewPanel
          selected={[...entries].map(([entryId, title]) => ({ entryId, title }))}
          afterEach={ackEntry}
          onDone={() => {
            setSelected(new Set());
            reload();
          }}
          extra={
            <label>
              <input type="checkbox" checked={alsoAck} onChange={(e) => setAlsoAck(e.target.checked)} />
              {s.alsoAcknowledge}
            </label>
          }
        />
      )}
    </main>
  );
}
