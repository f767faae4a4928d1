// AI applications and their keys (docs/apps.md): the registry, one app's
// keys (minted, regenerated, disabled, enabled), its stats and its AI Act
// records export (docs/ai-act.md).
import { call } from "../../api/client";
import "./trust.css";
import { useId, useState } from "react";
import type { PageProps } from "../../shell/area";
import { EmptyState, ErrorBox, Link, Loading, navigate, useAction, useLoad } from "../../ui";
import { utcDay, withQuery, type App, type AppKey } from "./api";
import { ConfirmButton, DownloadButtons, FieldError, ScopesField, SecretOnce, TrustBadge, fmtTime, TableWrap } from "./common";
import { draftOf, policyOf } from "./policy";
import { PolicyFields } from "./PolicyEditor";
import { useS } from "./strings";

const risks = ["low", "medium", "high", "critical"] as const;
const appScopes = ["trust:evaluate", "trust:read", "trust:usage"] as const;

export function AppsPage() {
  const s = useS();
  const [archived, setArchived] = useState(false);
  const apps = useLoad(() => call("get", "/trust-admin/apps", { query: { includeArchived: archived ? "true" : undefined } }), [archived]);
  const [adding, setAdding] = useState(false);
  return (
    <main className="trust-page">
      <h1>{s.appsTitle}</h1>
      <p className="lead">{s.appsLead}</p>
      <p className="actions">
        <button type="button" onClick={() => setAdding(!adding)} aria-expanded={adding}>
          {s.registerApp}
        </button>
        <label className="inline">
          <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} /> {s.showArchived}
        </label>
      </p>
      {adding && <RegisterApp onCancel={() => setAdding(false)} onCreated={(app) => navigate(`/trust/apps/${app.id}`)} />}
      <ErrorBox error={apps.error} />
      {apps.loading && <Loading />}
      {apps.data && apps.data.items.length === 0 && <EmptyState>{s.noApps}</EmptyState>}
      {apps.data && apps.data.items.length > 0 && (
        <TableWrap label={s.appsTitle}>
          <table>
            <caption className="visually-hidden">{s.appsTitle}</caption>
            <thead>
              <tr>
                <th scope="col">{s.name}</th>
                <th scope="col">{s.channel}</th>
                <th scope="col">{s.risk}</th>
                <th scope="col">{s.status}</th>
              </tr>
            </thead>
            <tbody>
              {apps.data.items.map((app) => (
                <tr key={app.id} data-app-name={app.name}>
                  <td>
                    <Link to={`/trust/apps/${app.id}`}>{app.name}</Link>
                  </td>
                  <td>
                    <code>{app.channel}</code> {app.customerFacing && <TrustBadge value="customer" label={s.customerFacing} />}
                  </td>
                  <td>
                    <TrustBadge value={`risk-${app.risk}`} label={s.riskLabels[app.risk]} />
                  </td>
                  <td>
                    <TrustBadge value={app.status} label={s.appStatus[app.status]} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </main>
  );
}

function useChannels() {
  return useLoad(() => call("get", "/trust-admin/context"), []);
}

// Registers an app, or with `app` changes it (PATCH: every field sent).
function RegisterApp({ app, onCancel, onCreated }: { app?: App; onCancel: () => void; onCreated: (app: App) => void }) {
  const s = useS();
  const id = useId();
  const context = useChannels();
  const [name, setName] = useState(app?.name ?? "");
  const [channel, setChannel] = useState(app?.channel ?? "");
  const [risk, setRisk] = useState<(typeof risks)[number]>(app?.risk ?? "medium");
  const [description, setDescription] = useState(app?.description ?? "");
  const [draft, setDraft] = useState(() => draftOf(app?.defaultPolicy ?? {}));
  const save = useAction();
  const channels = [...(context.data?.internalChannels ?? []), ...(context.data?.customerFacingChannels ?? [])];
  return (
    <form
      className="panel"
      aria-labelledby={`${id}-title`}
      onSubmit={async (e) => {
        e.preventDefault();
        const saved = await save.run(() =>
          app
            ? call("patch", "/trust-admin/apps/{id}", {
                params: { id: app.id },
                body: { name, channel, risk, description, defaultPolicy: policyOf(draft) },
              })
            : call("post", "/trust-admin/apps", {
                body: { name, channel, risk, description: description || undefined, defaultPolicy: policyOf(draft) },
              }),
        );
        if (saved) onCreated(saved);
      }}
    >
      <h2 id={`${id}-title`}>{app ? s.editApp : s.registerApp}</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>{s.name}</label>
        <input id={`${id}-name`} name="name" value={name} onChange={(e) => setName(e.target.value)} aria-describedby={`${id}-name-err`} />
        <FieldError error={save.error} field="name" id={`${id}-name-err`} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-channel`}>{s.channel}</label>
        <input
          id={`${id}-channel`}
          name="channel"
          list={`${id}-channels`}
          value={channel}
          onChange={(e) => setChannel(e.target.value)}
          aria-describedby={`${id}-channel-hint ${id}-channel-err`}
        />
        <datalist id={`${id}-channels`}>
          {channels.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <span className="hint" id={`${id}-channel-hint`}>
          {s.channelHint}
        </span>
        <FieldError error={save.error} field="channel" id={`${id}-channel-err`} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-risk`}>{s.risk}</label>
        <select id={`${id}-risk`} name="risk" value={risk} onChange={(e) => setRisk(e.target.value as typeof risk)}>
          {risks.map((r) => (
            <option key={r} value={r}>
              {s.riskLabels[r]}
            </option>
          ))}
        </select>
        <FieldError error={save.error} field="risk" id={`${id}-risk-err`} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>{s.description}</label>
        <textarea id={`${id}-description`} name="description" value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <details>
        <summary>{s.defaultPolicy}</summary>
        <p className="hint">{s.defaultPolicyHint}</p>
        <PolicyFields draft={draft} setDraft={setDraft} error={prefixErrors(save.error)} />
      </details>
      <ErrorBox error={save.error} />
      <p className="actions">
        <button type="submit" disabled={save.busy}>
          {save.busy ? s.working : app ? s.saveApp : s.register}
        </button>
        <button type="button" onClick={onCancel}>
          {s.cancel}
        </button>
      </p>
    </form>
  );
}

// defaultPolicy.x errors shown under the policy's field x.
function prefixErrors(error: unknown): unknown {
  if (!error || typeof error !== "object" || !("errors" in error)) return error;
  const errors = (error as { errors: { field: string; message: string }[] }).errors;
  return { errors: errors.map((e) => ({ ...e, field: e.field.replace(/^defaultPolicy\./, "") })) };
}

export function AppPage({ params }: PageProps) {
  const s = useS();
  const appId = params.appId;
  const [generation, setGeneration] = useState(0);
  const refresh = () => setGeneration((g) => g + 1);
  const app = useLoad(() => call("get", "/trust-admin/apps/{id}", { params: { id: appId } }), [appId, generation]);
  const keys = useLoad(() => call("get", "/trust-admin/apps/{id}/keys", { params: { id: appId } }), [appId, generation]);
  const [secret, setSecret] = useState<{ secret: string; clientId: string } | null>(null);
  const [editing, setEditing] = useState(false);
  const archived = app.data?.status === "archived";
  return (
    <main className="trust-page">
      <p>
        <Link to="/trust/apps">← {s.appsTitle}</Link>
      </p>
      <h1>{app.data?.name ?? s.app}</h1>
      <ErrorBox error={app.error} />
      {app.loading && !app.data && <Loading />}
      {app.data && (
        <>
          <dl className="facts">
            <dt>{s.channel}</dt>
            <dd>
              <code>{app.data.channel}</code> {app.data.customerFacing ? s.customerFacing : s.internal}
            </dd>
            <dt>{s.risk}</dt>
            <dd>{s.riskLabels[app.data.risk]}</dd>
            <dt>{s.status}</dt>
            <dd>
              <TrustBadge value={app.data.status} label={s.appStatus[app.data.status]} />
            </dd>
            {app.data.description && (
              <>
                <dt>{s.description}</dt>
                <dd>{app.data.description}</dd>
              </>
            )}
            <dt>{s.rateLimit}</dt>
            <dd>
              {app.data.rateLimit
                ? s.rateLimitValue(app.data.rateLimit.requestsPerSecond, app.data.rateLimit.burst)
                : s.rateLimitNone}
            </dd>
            <dt>{s.defaultPolicy}</dt>
            <dd>
              <code>{JSON.stringify(app.data.defaultPolicy)}</code>
            </dd>
          </dl>
          {editing && (
            <RegisterApp
              app={app.data}
              onCancel={() => setEditing(false)}
              onCreated={() => {
                setEditing(false);
                refresh();
              }}
            />
          )}
          {!archived && (
            <p className="actions">
              <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                {s.editApp}
              </button>
              <ConfirmButton
                label={s.archiveApp}
                title={s.archiveAppTitle}
                body={<p>{s.archiveAppBody}</p>}
                confirmLabel={s.archiveApp}
                danger
                onConfirm={async () => {
                  await call("post", "/trust-admin/apps/{id}/archive", { params: { id: appId } });
                  refresh();
                }}
              />
            </p>
          )}
        </>
      )}

      {secret && <SecretOnce secret={secret.secret} clientId={secret.clientId} onDone={() => setSecret(null)} />}

      <section aria-labelledby="keys-title">
        <h2 id="keys-title">{s.keys}</h2>
        <ErrorBox error={keys.error} />
        {keys.loading && !keys.data && <Loading />}
        {keys.data && keys.data.items.length === 0 && <EmptyState>{s.noKeys}</EmptyState>}
        {keys.data && keys.data.items.length > 0 && (
          <KeyTable
            appId={appId}
            keys={keys.data.items}
            archived={archived}
            onSecret={(secret, clientId) => setSecret({ secret, clientId })}
            onChanged={refresh}
          />
        )}
        {!archived && app.data && (
          <MintKey
            appId={appId}
            onMinted={(secret, clientId) => {
              setSecret({ secret, clientId });
              refresh();
            }}
          />
        )}
      </section>
      <AppStats appId={appId} generation={generation} />
    </main>
  );
}

function KeyTable({
  appId,
  keys,
  archived,
  onSecret,
  onChanged,
}: {
  appId: string;
  keys: AppKey[];
  archived: boolean;
  onSecret: (secret: string, clientId: string) => void;
  onChanged: () => void;
}) {
  const s = useS();
  const toggle = useAction();
  return (
    <>
      <ErrorBox error={toggle.error} />
      <TableWrap label={s.keys}>
        <table>
          <caption className="visually-hidden">{s.keys}</caption>
          <thead>
            <tr>
              <th scope="col">{s.name}</th>
              <th scope="col">{s.clientId}</th>
              <th scope="col">{s.scopes}</th>
              <th scope="col">{s.expires}</th>
              <th scope="col">{s.status}</th>
              <th scope="col">{s.actions}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => {
              const live = !archived && (key.status === "enabled" || key.status === "disabled");
              return (
                <tr key={key.id} data-key-name={key.name} data-key-status={key.status}>
                  <td>
                    {key.name}
                    <br />
                    <code className="muted">{key.secretPrefix}…</code>
                  </td>
                  <td>
                    <code>{key.clientId}</code>
                  </td>
                  <td>{key.scopes.join(", ")}</td>
                  <td>{fmtTime(key.expiresAt)}</td>
                  <td>
                    <TrustBadge value={key.status} label={s.keyStatus[key.status]} />
                    <details className="history">
                      <summary>{s.history}</summary>
                      <ul>
                        {key.history.map((h, i) => (
                          <li key={i}>
                            {s.keyEvents[h.event]} · {fmtTime(h.at)}
                          </li>
                        ))}
                      </ul>
                    </details>
                  </td>
                  <td className="actions">
                    {live && (key.status === "enabled" || key.status === "disabled") && (
                      <button
                        type="button"
                        disabled={toggle.busy}
                        aria-label={`${key.status === "enabled" ? s.disable : s.enable} ${key.name}`}
                        onClick={() =>
                          toggle
                            .run(() =>
                              call(
                                "post",
                                key.status === "enabled"
                                  ? "/trust-admin/apps/{id}/keys/{keyId}/disable"
                                  : "/trust-admin/apps/{id}/keys/{keyId}/enable",
                                { params: { id: appId, keyId: key.id } },
                              ),
                            )
                            .then(onChanged)
                        }
                      >
                        {key.status === "enabled" ? s.disable : s.enable}
                      </button>
                    )}
                    {live && (
                      <ConfirmButton
                        label={s.regenerate}
                        title={`${s.regenerateTitle}: ${key.name}`}
                        body={<p>{s.regenerateBody}</p>}
                        confirmLabel={s.regenerate}
                        danger
                        onConfirm={async () => {
                          const k = await call("post", "/trust-admin/apps/{id}/keys/{keyId}/regenerate", {
                            params: { id: appId, keyId: key.id },
                          });
                          onSecret(k.clientSecret, k.clientId);
                          onChanged();
                        }}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

function MintKey({ appId, onMinted }: { appId: string; onMinted: (secret: string, clientId: string) => void }) {
  const s = useS();
  const id = useId();
  const [name, setName] = useState("");
  const [expires, setExpires] = useState(() => utcDay(new Date(), 90));
  const [scopes, setScopes] = useState<string[]>([...appScopes]);
  const mint = useAction();
  return (
    <form
      className="panel"
      aria-labelledby={`${id}-title`}
      onSubmit={async (e) => {
        e.preventDefault();
        const key = await mint.run(() =>
          call("post", "/trust-admin/apps/{id}/keys", {
            params: { id: appId },
            body: {
              name,
              expiresAt: expires ? `${expires}T00:00:00Z` : "",
              scopes: scopes as (typeof appScopes)[number][],
            },
          }),
        );
        if (key) {
          setName("");
          onMinted(key.clientSecret, key.clientId);
        }
      }}
    >
      <h3 id={`${id}-title`}>{s.mintKey}</h3>
      <div className="field">
        <label htmlFor={`${id}-name`}>{s.keyName}</label>
        <input id={`${id}-name`} name="keyName" value={name} onChange={(e) => setName(e.target.value)} aria-describedby={`${id}-name-err`} />
        <FieldError error={mint.error} field="name" id={`${id}-name-err`} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-expires`}>{s.expiresOn}</label>
        <input
          id={`${id}-expires`}
          name="expiresAt"
          type="date"
          required
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          aria-describedby={`${id}-expires-hint ${id}-expires-err`}
        />
        <span className="hint" id={`${id}-expires-hint`}>
          {s.expiresHint}
        </span>
        <FieldError error={mint.error} field="expiresAt" id={`${id}-expires-err`} />
      </div>
      <ScopesField choices={appScopes} value={scopes} onChange={setScopes} error={mint.error} id={`${id}-scopes-err`} />
      <ErrorBox error={mint.error} />
      <p className="actions">
        <button type="submit" disabled={mint.busy}>
          {mint.busy ? s.working : s.mintKey}
        </button>
      </p>
    </form>
  );
}

function AppStats({ appId, generation }: { appId: string; generation: number }) {
  const s = useS();
  const id = useId();
  const [from, setFrom] = useState(() => utcDay(new Date(), -29));
  const [to, setTo] = useState(() => utcDay(new Date()));
  const [range, setRange] = useState({ from, to });
  const stats = useLoad(
    () => call("get", "/trust-admin/apps/{id}/stats", { params: { id: appId }, query: { from: range.from, to: range.to } }),
    [appId, range.from, range.to, generation],
  );
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{s.stats}</h2>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          setRange({ from, to });
        }}
      >
        <label>
          {s.from} <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          {s.to} <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="submit">{s.show}</button>
      </form>
      <ErrorBox error={stats.error} />
      {stats.loading && <Loading />}
      {stats.data && (
        <>
          <dl className="counts" data-app-stats>
            <div>
              <dt>{s.decisions}</dt>
              <dd data-count="decisions">{stats.data.decisions.total}</dd>
            </div>
            <div>
              <dt>{s.decisionAllow}</dt>
              <dd>{stats.data.decisions.allow}</dd>
            </div>
            <div>
              <dt>{s.decisionWarn}</dt>
              <dd>{stats.data.decisions.warn}</dd>
            </div>
            <div>
              <dt>{s.decisionBlock}</dt>
              <dd>{stats.data.decisions.block}</dd>
            </div>
            <div>
              <dt>{s.sourceEvaluations}</dt>
              <dd>{stats.data.sourceDecisions.total}</dd>
            </div>
            <div>
              <dt>{s.escalated}</dt>
              <dd>{stats.data.sourceDecisions.escalated}</dd>
            </div>
          </dl>
          {stats.data.keys.length === 0 ? (
            <EmptyState>{s.noKeyVolume}</EmptyState>
          ) : (
            <TableWrap label={s.perKeyVolume}>
              <table>
                <caption>{s.perKeyVolume}</caption>
                <thead>
                  <tr>
                    <th scope="col">{s.keyName}</th>
                    <th scope="col">{s.requests}</th>
                    <th scope="col">{s.lastRequest}</th>
                  </tr>
                </thead>
                <tbody>
                  {stats.data.keys.map((k) => (
                    <tr key={k.keyId} data-volume-key={k.name}>
                      <td>{k.name}</td>
                      <td>{k.requests}</td>
                      <td>{fmtTime(k.lastRequestAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </>
      )}
      <AppRecordsExport appId={appId} from={range.from} to={range.to} />
    </section>
  );
}

// The app's records over the shown window, for EU AI Act record-keeping:
// every decision with its evidence, its usage, the oversight around them and
// the signed checkpoint covering them, as JSON Lines or CSV.
function AppRecordsExport({ appId, from, to }: { appId: string; from: string; to: string }) {
  const s = useS();
  const id = useId();
  const file = (format: "jsonl" | "csv", label: string) => ({
    label,
    url: withQuery(`/trust-admin/apps/${encodeURIComponent(appId)}/records`, { from, to, format }),
    fallbackName: `credence-app-${appId}-records-${from}-to-${to}.${format}`,
  });
  return (
    <div aria-labelledby={`${id}-title`} role="group" data-app-records>
      <h3 id={`${id}-title`}>{s.aiActRecords}</h3>
      <p className="hint">{s.aiActRecordsHint}</p>
      <DownloadButtons files={[file("jsonl", s.downloadJsonLines), file("csv", s.downloadCsv)]} />
    </div>
  );
}
