// Connectors (docs/connectors.md): git, web and push sources of connected
// documents, their sync runs and status.
import { call } from "../../api/client";
import "./trust.css";
import { useEffect, useId, useRef, useState } from "react";
import type { PageProps } from "../../shell/area";
import { EmptyState, ErrorBox, Link, Loading, Progress, navigate, useAction, useLoad } from "../../ui";
import { type Connector, type ConnectorRun } from "./api";
import { ConfirmButton, FieldError, TrustBadge, fmtTime, TableWrap } from "./common";
import { CredentialFields, CredentialSection, useCredentialDraft } from "./ConnectorCredential";
import { useS } from "./strings";

const kinds = ["git", "web", "push"] as const;
type Kind = (typeof kinds)[number];

export function ConnectorsPage() {
  const s = useS();
  const connectors = useLoad(() => call("get", "/trust-admin/connectors"), []);
  const [adding, setAdding] = useState(false);
  return (
    <main className="trust-page">
      <h1>{s.connectorsTitle}</h1>
      <p className="lead">{s.connectorsLead}</p>
      <p className="actions">
        <button type="button" aria-expanded={adding} onClick={() => setAdding(!adding)}>
          {s.createConnector}
        </button>
      </p>
      {adding && <CreateConnector onCancel={() => setAdding(false)} onCreated={(c) => navigate(`/trust/connectors/${c.id}`)} />}
      <ErrorBox error={connectors.error} />
      {connectors.loading && <Loading />}
      {connectors.data && connectors.data.length === 0 && <EmptyState>{s.noConnectors}</EmptyState>}
      {connectors.data && connectors.data.length > 0 && (
        <TableWrap label={s.connectorsTitle}>
          <table>
            <caption className="visually-hidden">{s.connectorsTitle}</caption>
            <thead>
              <tr>
                <th scope="col">{s.connector}</th>
                <th scope="col">{s.kind}</th>
                <th scope="col">{s.lastSync}</th>
                <th scope="col">{s.documents}</th>
                <th scope="col">{s.lastSuccess}</th>
              </tr>
            </thead>
            <tbody>
              {connectors.data.map((c) => (
                <tr key={c.id} data-connector-key={c.key}>
                  <td>
                    <Link to={`/trust/connectors/${c.id}`}>{c.name}</Link> <code>{c.key}</code>
                  </td>
                  <td>{c.kind}</td>
                  <td>
                    <TrustBadge value={c.status.state} label={s.syncState[c.status.state]} />
                  </td>
                  <td data-documents>{c.status.documents}</td>
                  <td>{fmtTime(c.status.lastSuccessAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </main>
  );
}

function lines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

function CreateConnector({ onCancel, onCreated }: { onCancel: () => void; onCreated: (c: Connector) => void }) {
  const s = useS();
  const id = useId();
  const [key, setKey] = useState("");
  const [kind, setKind] = useState<Kind>("git");
  const [name, setName] = useState("");
  const [schedule, setSchedule] = useState("");
  const [gitUrl, setGitUrl] = useState("");
  const [branch, setBranch] = useState("main");
  const [sshHostKey, setSshHostKey] = useState("");
  const [startUrls, setStartUrls] = useState("");
  const [sitemapUrl, setSitemapUrl] = useState("");
  const [maxPages, setMaxPages] = useState("");
  const credential = useCredentialDraft();
  const save = useAction();
  const settings = (): Record<string, unknown> | undefined => {
    if (kind === "git") return { url: gitUrl, branch: branch || undefined, sshHostKey: sshHostKey || undefined };
    if (kind === "web") {
      const w: Record<string, unknown> = {};
      if (lines(startUrls).length) w.startUrls = lines(startUrls);
      if (sitemapUrl) w.sitemapUrl = sitemapUrl;
      if (maxPages) w.maxPages = /^\d+$/.test(maxPages) ? Number(maxPages) : maxPages;
      return w;
    }
    return undefined;
  };
  const err = (field: string) => <FieldError error={save.error} field={field} id={`${id}-${field}-err`} />;
  return (
    <form
      className="panel"
      aria-labelledby={`${id}-title`}
      onSubmit={async (e) => {
        e.preventDefault();
        const c = await save.run(() =>
          call("post", "/trust-admin/connectors", {
            body: {
              key,
              kind,
              name: name || undefined,
              settings: settings() as never,
              scheduleMinutes: kind !== "push" && schedule ? Number(schedule) : undefined,
              credential: kind !== "push" ? credential.body() : undefined,
            },
          }),
        );
        credential.clear();
        if (c) onCreated(c);
      }}
    >
      <h2 id={`${id}-title`}>{s.createConnector}</h2>
      <div className="field">
        <label htmlFor={`${id}-kind`}>{s.kind}</label>
        <select id={`${id}-kind`} name="kind" value={kind} onChange={(e) => {
            setKind(e.target.value as Kind);
            credential.setKind("");
          }} aria-describedby={`${id}-kind-hint`}>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {s.kinds[k]}
            </option>
          ))}
        </select>
        <span className="hint" id={`${id}-kind-hint`}>
          {s.kindHints[kind]}
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-key`}>{s.connectorKey}</label>
        <input id={`${id}-key`} name="key" value={key} onChange={(e) => setKey(e.target.value)} aria-describedby={`${id}-key-hint ${id}-key-err`} />
        <span className="hint" id={`${id}-key-hint`}>
          {s.connectorKeyHint}
        </span>
        {err("key")}
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>{s.name}</label>
        <input id={`${id}-name`} name="name" value={name} onChange={(e) => setName(e.target.value)} />
        {err("name")}
      </div>
      {kind === "git" && (
        <>
          <div className="field">
            <label htmlFor={`${id}-url`}>{s.gitUrl}</label>
            <input id={`${id}-url`} name="gitUrl" value={gitUrl} onChange={(e) => setGitUrl(e.target.value)} aria-describedby={`${id}-settings.url-err`} />
            {err("settings.url")}
          </div>
          <div className="field">
            <label htmlFor={`${id}-branch`}>{s.branch}</label>
            <input id={`${id}-branch`} name="branch" value={branch} onChange={(e) => setBranch(e.target.value)} />
            {err("settings.branch")}
          </div>
          <div className="field">
            <label htmlFor={`${id}-hostkey`}>{s.sshHostKey}</label>
            <input
              id={`${id}-hostkey`}
              name="sshHostKey"
              spellCheck={false}
              value={sshHostKey}
              onChange={(e) => setSshHostKey(e.target.value)}
              aria-describedby={`${id}-hostkey-hint ${id}-settings.sshHostKey-err`}
            />
            <span className="hint" id={`${id}-hostkey-hint`}>
              {s.sshHostKeyHint}
            </span>
            {err("settings.sshHostKey")}
          </div>
        </>
      )}
      {kind === "web" && (
        <>
          <div className="field">
            <label htmlFor={`${id}-start`}>{s.startUrls}</label>
            <textarea id={`${id}-start`} name="startUrls" rows={3} value={startUrls} onChange={(e) => setStartUrls(e.target.value)} />
            {err("settings.startUrls")}
          </div>
          <div className="field">
            <label htmlFor={`${id}-sitemap`}>{s.sitemapUrl}</label>
            <input id={`${id}-sitemap`} name="sitemapUrl" value={sitemapUrl} onChange={(e) => setSitemapUrl(e.target.value)} />
            {err("settings.sitemapUrl")}
          </div>
          <div className="field">
            <label htmlFor={`${id}-maxpages`}>{s.maxPages}</label>
            <input id={`${id}-maxpages`} name="maxPages" inputMode="numeric" value={maxPages} onChange={(e) => setMaxPages(e.target.value)} />
            {err("settings.maxPages")}
          </div>
        </>
      )}
      {kind !== "push" && <CredentialFields connectorKind={kind} draft={credential} error={save.error} allowNone />}
      {kind !== "push" && (
        <div className="field">
          <label htmlFor={`${id}-schedule`}>{s.scheduleMinutes}</label>
          <input
            id={`${id}-schedule`}
            name="scheduleMinutes"
            inputMode="numeric"
            value={schedule}
            onChange={(e) => setSchedule(e.target.value)}
            aria-describedby={`${id}-schedule-hint`}
          />
          <span className="hint" id={`${id}-schedule-hint`}>
            {s.scheduleHint}
          </span>
          {err("scheduleMinutes")}
        </div>
      )}
      <ErrorBox error={save.error} />
      <p className="actions">
        <button type="submit" disabled={save.busy}>
          {save.busy ? s.working : s.create}
        </button>
        <button type="button" onClick={onCancel}>
          {s.cancel}
        </button>
      </p>
    </form>
  );
}

const pollMs = 1000;

export function ConnectorPage({ params }: PageProps) {
  const s = useS();
  const connectorId = params.connectorId;
  const [generation, setGeneration] = useState(0);
  const refresh = () => setGeneration((g) => g + 1);
  const connector = useLoad(() => call("get", "/trust-admin/connectors/{id}", { params: { id: connectorId } }), [connectorId, generation]);
  const runs = useLoad(() => call("get", "/trust-admin/connectors/{id}/runs", { params: { id: connectorId } }), [connectorId, generation]);
  const key = connector.data?.key;
  const documents = useLoad(
    () => (key ? call("get", "/trust-admin/connected-documents", { query: { connectorKey: key } }) : Promise.resolve(undefined)),
    [key, generation],
  );
  const [run, setRun] = useState<ConnectorRun | null>(null);
  const sync = useAction();
  const timer = useRef<number | undefined>(undefined);
  const watching = run !== null && (run.status === "queued" || run.status === "running");

  // Polls the run until it finishes, then reloads the connector.
  useEffect(() => {
    if (!watching || !run) return;
    let live = true;
    timer.current = window.setTimeout(async () => {
      try {
        const next = await call("get", "/trust-admin/connectors/{id}/runs/{runId}", { params: { id: connectorId, runId: run.id } });
        if (!live) return;
        setRun(next);
        if (next.status === "succeeded" || next.status === "failed") refresh();
      } catch (e) {
        if (live) sync.run(() => Promise.reject(e));
      }
    }, pollMs);
    return () => {
      live = false;
      window.clearTimeout(timer.current);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [run, watching, connectorId]);

  // A run already under way when the page opens is watched too.
  useEffect(() => {
    const last = connector.data?.status.lastRun;
    if (!run && last && (last.status === "queued" || last.status === "running")) setRun(last);
  }, [connector.data, run]);

  // While it reloads (after a sync or a credential change), the connector as
  // last loaded stays on the page, so what it shows (a notice, the focus)
  // is not torn down and built again.
  const shown = useRef<Connector | undefined>(undefined);
  if (connector.data) shown.current = connector.data;
  const c = connector.data ?? (connector.loading && shown.current?.id === connectorId ? shown.current : undefined);
  const last = c?.status.lastRun;
  return (
    <main className="trust-page">
      <p>
        <Link to="/trust/connectors">← {s.connectorsTitle}</Link>
      </p>
      <h1>{c?.name ?? s.connector}</h1>
      <ErrorBox error={connector.error} />
      {connector.loading && !c && <Loading />}
      {c && (
        <>
          <dl className="facts" data-connector-status={c.status.state}>
            <dt>{s.connectorKey}</dt>
            <dd>
              <code>{c.key}</code>
            </dd>
            <dt>{s.kind}</dt>
            <dd>{s.kinds[c.kind]}</dd>
            <dt>{s.lastSync}</dt>
            <dd>
              <TrustBadge value={c.status.state} label={s.syncState[c.status.state]} />
            </dd>
            <dt>{s.documents}</dt>
            <dd data-documents>{c.status.documents}</dd>
            <dt>{s.lastSuccess}</dt>
            <dd>{fmtTime(c.status.lastSuccessAt)}</dd>
            <dt>{s.schedule}</dt>
            <dd>{c.scheduleMinutes ? `${c.scheduleMinutes} min · ${s.nextRun} ${fmtTime(c.nextRunAt)}` : s.manualOnly}</dd>
            <dt>{s.settings}</dt>
            <dd>
              <code>{JSON.stringify(c.settings ?? {})}</code>
            </dd>
          </dl>
          {c.kind !== "push" && <CredentialSection connector={c} onChanged={refresh} />}
          {c.kind === "push" ? (
            <section className="panel" aria-labelledby="push-title">
              <h2 id="push-title">{s.pushTitle}</h2>
              <p>{s.pushBody}</p>
              <pre>
                <code>{`PUT /api/connectors/${c.key}/documents?externalId=<id>\n{"title": "…", "content": "…"}`}</code>
              </pre>
              <p>
                <Link to={`/trust/api-keys?connector=${c.id}`}>{s.createPushKey}</Link>
              </p>
            </section>
          ) : (
            <section aria-labelledby="sync-title">
              <h2 id="sync-title">{s.sync}</h2>
              <p className="actions">
                <button
                  type="button"
                  disabled={sync.busy || watching}
                  onClick={async () => {
                    const r = await sync.run(() => call("post", "/trust-admin/connectors/{id}/sync", { params: { id: connectorId } }));
                    if (r) setRun(r as ConnectorRun);
                  }}
                >
                  {s.syncNow}
                </button>
              </p>
              <ErrorBox error={sync.error} />
              {watching && run && (
                <div data-sync-progress>
                  <Progress label={run.status === "queued" ? s.syncQueued : format(s.syncRunning, run.documentsSeen)} />
                </div>
              )}
              {run && !watching && (
                <p role="status" data-sync-result={run.status}>
                  {run.status === "succeeded" ? s.syncSucceeded : s.syncFailed}
                  {run.error && `: ${run.error}`}
                </p>
              )}
            </section>
          )}
          {last && <RunDetails run={last} title={s.lastRun} />}
          <ConfirmButton
            label={s.deleteConnector}
            title={s.deleteConnectorTitle}
            body={<p>{s.deleteConnectorBody}</p>}
            confirmLabel={s.deleteConnector}
            danger
            onConfirm={async () => {
              await call("delete", "/trust-admin/connectors/{id}", { params: { id: connectorId } });
              navigate("/trust/connectors");
            }}
          />
        </>
      )}
      <section aria-labelledby="docs-title">
        <h2 id="docs-title">{s.connectedDocuments}</h2>
        <ErrorBox error={documents.error} />
        {documents.data && documents.data.length === 0 && <EmptyState>{s.noDocuments}</EmptyState>}
        {documents.data && documents.data.length > 0 && (
          <TableWrap label={s.connectedDocuments}>
            <table>
              <caption className="visually-hidden">{s.connectedDocuments}</caption>
              <thead>
                <tr>
                  <th scope="col">{s.title}</th>
                  <th scope="col">{s.sourceId}</th>
                  <th scope="col">{s.status}</th>
                  <th scope="col">{s.version}</th>
                  <th scope="col">{s.lastSynced}</th>
                </tr>
              </thead>
              <tbody>
                {documents.data.map((d) => (
                  <tr key={d.id} data-document-external-id={d.externalId}>
                    <td>{d.url ? <a href={d.url}>{d.title}</a> : d.title}</td>
                    <td>
                      <code>{d.sourceId}</code>
                    </td>
                    <td>
                      <TrustBadge value={d.status} label={s.docStatus[d.status] ?? d.status} />
                    </td>
                    <td>{d.version}</td>
                    <td>{fmtTime(d.lastSyncedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
      <section aria-labelledby="runs-title">
        <h2 id="runs-title">{s.runs}</h2>
        <ErrorBox error={runs.error} />
        {runs.data && runs.data.length === 0 && <EmptyState>{s.noRuns}</EmptyState>}
        {runs.data && runs.data.length > 0 && (
          <TableWrap label={s.runs}>
            <table>
              <caption className="visually-hidden">{s.runs}</caption>
              <thead>
                <tr>
                  <th scope="col">{s.queuedAt}</th>
                  <th scope="col">{s.status}</th>
                  <th scope="col">{s.counters}</th>
                  <th scope="col">{s.error}</th>
                </tr>
              </thead>
              <tbody>
                {runs.data.map((r) => (
                  <tr key={r.id} data-run-status={r.status}>
                    <td>{fmtTime(r.queuedAt)}</td>
                    <td>
                      <TrustBadge value={r.status} label={s.syncState[r.status]} />
                    </td>
                    <td>{format(s.counterLine, r.documentsAdded, r.documentsChanged, r.documentsRemoved, r.documentsFailed)}</td>
                    <td>{r.error ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
    </main>
  );
}

function format(template: string, ...values: (string | number)[]): string {
  return template.replace(/\{(\d)\}/g, (_, i: string) => String(values[Number(i)] ?? ""));
}

function RunDetails({ run, title }: { run: ConnectorRun; title: string }) {
  const s = useS();
  return (
    <section aria-labelledby="last-run-title">
      <h2 id="last-run-title">{title}</h2>
      <dl className="counts">
        <div>
          <dt>{s.seen}</dt>
          <dd>{run.documentsSeen}</dd>
        </div>
        <div>
          <dt>{s.added}</dt>
          <dd>{run.documentsAdded}</dd>
        </div>
        <div>
          <dt>{s.changed}</dt>
          <dd>{run.documentsChanged}</dd>
        </div>
        <div>
          <dt>{s.removed}</dt>
          <dd>{run.documentsRemoved}</dd>
        </div>
        <div>
          <dt>{s.unchanged}</dt>
          <dd>{run.documentsUnchanged}</dd>
        </div>
        <div>
          <dt>{s.failed}</dt>
          <dd>{run.documentsFailed}</dd>
        </div>
      </dl>
      {run.error && (
        <p className="error" role="alert">
          {run.error}
        </p>
      )}
      {run.errors && run.errors.length > 0 && (
        <>
          <h3>{s.documentErrors}</h3>
          <ul>
            {run.errors.map((e, i) => (
              <li key={i}>
                <code>{e.externalId}</code>: {e.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
