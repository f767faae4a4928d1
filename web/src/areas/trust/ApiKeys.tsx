// Tenant API keys (docs/credentials.md): machine credentials that are also
// OAuth 2.0 clients (client credentials at POST /connect/token).
import { call } from "../../api/client";
import "./trust.css";
import { useId, useState } from "react";
import type { PageProps } from "../../shell/area";
import { EmptyState, ErrorBox, Loading, useAction, useLoad } from "../../ui";
import { ConfirmButton, FieldError, ScopesField, SecretOnce, fmtTime, TableWrap } from "./common";
import { useS } from "./strings";

const keyScopes = ["trust:evaluate", "trust:read", "trust:usage", "connector:push"] as const;
type Scope = (typeof keyScopes)[number];

export function ApiKeysPage({ query }: PageProps) {
  const s = useS();
  const id = useId();
  const [generation, setGeneration] = useState(0);
  const keys = useLoad(() => call("get", "/api/apikeys"), [generation]);
  const connectors = useLoad(() => call("get", "/trust-admin/connectors"), []);
  const pushConnectors = (connectors.data ?? []).filter((c) => c.kind === "push");
  const preset = query.get("connector") ?? "";
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(preset ? ["connector:push"] : ["trust:evaluate", "trust:read"]);
  const [expires, setExpires] = useState("");
  const [connectorId, setConnectorId] = useState(preset);
  const [secret, setSecret] = useState<{ secret: string; clientId: string } | null>(null);
  const create = useAction();
  const connectorName = (cid: string | null) => connectors.data?.find((c) => c.id === cid)?.key ?? cid;
  return (
    <main className="trust-page">
      <h1>{s.apiKeysTitle}</h1>
      <p className="lead">{s.apiKeysLead}</p>
      {secret && <SecretOnce secret={secret.secret} clientId={secret.clientId} onDone={() => setSecret(null)} />}
      <form
        className="panel"
        aria-labelledby={`${id}-title`}
        onSubmit={async (e) => {
          e.preventDefault();
          const key = await create.run(() =>
            call("post", "/api/apikeys", {
              body: {
                name,
                scopes,
                expiresAt: expires ? `${expires}T00:00:00Z` : undefined,
                connectorId: scopes.includes("connector:push") && connectorId ? connectorId : undefined,
              },
            }),
          );
          if (key) {
            setSecret({ secret: key.clientSecret, clientId: key.clientId });
            setName("");
            setGeneration((g) => g + 1);
          }
        }}
      >
        <h2 id={`${id}-title`}>{s.createApiKey}</h2>
        <div className="field">
          <label htmlFor={`${id}-name`}>{s.keyName}</label>
          <input id={`${id}-name`} name="apiKeyName" value={name} onChange={(e) => setName(e.target.value)} aria-describedby={`${id}-name-err`} />
          <FieldError error={create.error} field="name" id={`${id}-name-err`} />
        </div>
        <ScopesField choices={keyScopes} value={scopes} onChange={setScopes} error={create.error} id={`${id}-scopes-err`} />
        {scopes.includes("connector:push") && (
          <div className="field">
            <label htmlFor={`${id}-connector`}>{s.pushConnector}</label>
            <select id={`${id}-connector`} name="connectorId" value={connectorId} onChange={(e) => setConnectorId(e.target.value)}>
              <option value="">{s.chooseConnector}</option>
              {pushConnectors.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.key})
                </option>
              ))}
            </select>
            <FieldError error={create.error} field="connectorId" id={`${id}-connector-err`} />
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-expires`}>{s.expiresOnOptional}</label>
          <input id={`${id}-expires`} name="expiresAt" type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
          <FieldError error={create.error} field="expiresAt" id={`${id}-expires-err`} />
        </div>
        <ErrorBox error={create.error} />
        <p className="actions">
          <button type="submit" disabled={create.busy}>
            {create.busy ? s.working : s.createApiKey}
          </button>
        </p>
      </form>

      <section aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>{s.activeKeys}</h2>
        <ErrorBox error={keys.error} />
        {keys.loading && !keys.data && <Loading />}
        {keys.data && keys.data.length === 0 && <EmptyState>{s.noApiKeys}</EmptyState>}
        {keys.data && keys.data.length > 0 && (
          <TableWrap label={s.activeKeys}>
            <table>
              <caption className="visually-hidden">{s.activeKeys}</caption>
              <thead>
                <tr>
                  <th scope="col">{s.name}</th>
                  <th scope="col">{s.clientId}</th>
                  <th scope="col">{s.scopes}</th>
                  <th scope="col">{s.expires}</th>
                  <th scope="col">{s.actions}</th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <tr key={key.id} data-apikey-name={key.name}>
                    <td>
                      {key.name}
                      <br />
                      <code className="muted">{key.secretPrefix}…</code>
                    </td>
                    <td>
                      <code>{key.clientId}</code>
                    </td>
                    <td>
                      {key.scopes.join(", ")}
                      {key.connectorId && (
                        <>
                          <br />
                          {s.connector}: <code>{connectorName(key.connectorId)}</code>
                        </>
                      )}
                    </td>
                    <td>{fmtTime(key.expiresAt, s.never)}</td>
                    <td>
                      <ConfirmButton
                        label={s.revoke}
                        title={`${s.revokeTitle}: ${key.name}`}
                        body={<p>{s.revokeBody}</p>}
                        confirmLabel={s.revoke}
                        danger
                        onConfirm={async () => {
                          await call("delete", "/api/apikeys/{id}", { params: { id: key.id } });
                          setGeneration((g) => g + 1);
                        }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
      <section aria-labelledby={`${id}-oauth`}>
        <h2 id={`${id}-oauth`}>{s.oauthTitle}</h2>
        <p>{s.oauthBody}</p>
        <pre>
          <code>{`POST /connect/token\ngrant_type=client_credentials&client_id=<clientId>&client_secret=<secret>&scope=trust:evaluate`}</code>
        </pre>
      </section>
    </main>
  );
}
