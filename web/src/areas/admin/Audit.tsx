// The audit log, newest first: filters (actor, action exact or a prefix
// ending in '.', from, to), cursor paging with "Load more".
import { useEffect, useState } from "react";
import { call, type Answer } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { EmptyState, ErrorBox, Loading, useAction } from "../../ui";
import { AdminPage } from "./AdminPage";
import { auditQuery, type AuditFilters } from "./auditQuery";
import { useS } from "./strings";
import { useWhen } from "./when";
import { download, sendText } from "./raw";

export type AuditPage = Answer<"/api/admin/audit", "get">;
export type AuditEntry = AuditPage["entries"][number];

const empty: AuditFilters = { actor: "", action: "", from: "", to: "" };

export function AuditPage({ me, query }: PageProps) {
  const s = useS();
  const when = useWhen();
  const exporting = useAction();
  const initial: AuditFilters = {
    actor: query.get("actor") ?? "",
    action: query.get("action") ?? "",
    from: query.get("from") ?? "",
    to: query.get("to") ?? "",
  };
  const [draft, setDraft] = useState<AuditFilters>(initial);
  const [filters, setFilters] = useState<AuditFilters>(initial);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const loading = useAction();
  const owner = me.tenantRole === "Owner";

  const fetchPage = (f: AuditFilters, after: string | null) =>
    call("get", `/api/admin/audit?${auditQuery(f, after)}` as "/api/admin/audit");

  useEffect(() => {
    if (!owner) return;
    setEntries(null);
    setCursor(null);
    loading.run(async () => {
      const page = await fetchPage(filters, null);
      setEntries(page.entries);
      setCursor(page.nextCursor ?? null);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filters, owner]);

  const set = (k: keyof AuditFilters) => (e: React.ChangeEvent<HTMLInputElement>) => setDraft({ ...draft, [k]: e.target.value });

  return (
    <AdminPage title={s.audit} me={me}>
      <p className="intro">{s.auditIntro}</p>
      <form
        className="filters"
        aria-label={s.filters}
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ ...draft });
        }}
      >
        <div className="field">
          <label htmlFor="audit-action">{s.f.action}</label>
          <input id="audit-action" name="action" value={draft.action} onChange={set("action")} aria-describedby="audit-action-help" />
          <span id="audit-action-help" className="help">
            {s.actionHelp}
          </span>
        </div>
        <div className="field">
          <label htmlFor="audit-actor">{s.f.actor}</label>
          <input id="audit-actor" name="actor" value={draft.actor} onChange={set("actor")} aria-describedby="audit-actor-help" />
          <span id="audit-actor-help" className="help">
            {s.actorHelp}
          </span>
        </div>
        <div className="field">
          <label htmlFor="audit-from">{s.f.from}</label>
          <input id="audit-from" name="from" type="date" value={draft.from} onChange={set("from")} />
        </div>
        <div className="field">
          <label htmlFor="audit-to">{s.f.to}</label>
          <input id="audit-to" name="to" type="date" value={draft.to} onChange={set("to")} />
        </div>
        <div className="form-buttons">
          <button type="submit">{s.applyFilters}</button>
          <button
            type="button"
            onClick={() => {
              setDraft(empty);
              setFilters(empty);
            }}
          >
            {s.clearFilters}
          </button>
          <button
            type="button"
            disabled={exporting.busy}
            onClick={() =>
              exporting.run(async () => {
                const q = new URLSearchParams(auditQuery(filters, null, 10000));
                q.set("format", "csv");
                const r = await sendText("GET", `/api/admin/audit/export?${q}`);
                download(r.text, r.contentType, r.filename ?? "audit.csv");
              })
            }
          >
            {exporting.busy ? s.working : s.exportCsv}
          </button>
        </div>
      </form>
      <ErrorBox error={loading.error ?? exporting.error} />
      {entries === null && loading.busy && <Loading />}
      {entries && entries.length === 0 && (
        <EmptyState>
          <p>{s.auditEmpty}</p>
        </EmptyState>
      )}
      {entries && entries.length > 0 && (
        <div className="table-wrap">
          <table className="resource-list audit">
            <thead>
              <tr>
                <th scope="col">{s.f.action}</th>
                <th scope="col">{s.when}</th>
                <th scope="col">{s.actor}</th>
                <th scope="col">{s.target}</th>
                <th scope="col">{s.outcome}</th>
                <th scope="col">{s.details}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-audit-action={e.action} data-sequence={e.sequence}>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>
                    <time dateTime={e.at}>{when(e.at)}</time>
                  </td>
                  <td>
                    {e.actor.label}
                    {e.actor.id && (
                      <button
                        type="button"
                        className="link"
                        aria-label={`${s.filterByActor}: ${e.actor.label}`}
                        onClick={() => {
                          const next = { ...draft, actor: e.actor.id! };
                          setDraft(next);
                          setFilters(next);
                        }}
                      >
                        {s.only}
                      </button>
                    )}
                  </td>
                  <td>
                    {e.target.type}
                    {e.target.id && <div className="muted mono">{e.target.id}</div>}
                  </td>
                  <td>{s.outcomes[e.outcome] ?? e.outcome}</td>
                  <td>
                    <code className="details">{JSON.stringify(e.details)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {entries && cursor && (
        <p>
          <button
            type="button"
            disabled={loading.busy}
            onClick={() =>
              loading.run(async () => {
                const page = await fetchPage(filters, cursor);
                setEntries((prev) => [...(prev ?? []), ...page.entries]);
                setCursor(page.nextCursor ?? null);
              })
            }
          >
            {loading.busy ? s.working : s.loadMore}
          </button>
        </p>
      )}
    </AdminPage>
  );
}
