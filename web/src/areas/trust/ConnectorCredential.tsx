// A connector's write-only credential (docs/connectors.md, "Credentials"):
// the fields that give one, and on the connector's page whether one is set,
// with a form to set or replace it and a button to remove it. The server
// never answers the secret, so nothing here is ever prefilled with it, and
// the secret fields are emptied once saved.
import { useId, useState } from "react";
import { call } from "../../api/client";
import { ErrorBox, useAction } from "../../ui";
import type { Connector } from "./api";
import { ConfirmButton, FieldError } from "./common";
import { useS } from "./strings";

export type CredentialKind = "basic" | "bearer" | "header" | "sshKey";

// What each connector kind takes: git over http(s) basic or bearer, over
// ssh a deploy key; a web site basic, bearer or a header of its own.
export function credentialKindsFor(connectorKind: string): CredentialKind[] {
  if (connectorKind === "git") return ["basic", "bearer", "sshKey"];
  if (connectorKind === "web") return ["basic", "bearer", "header"];
  return [];
}

type Fields = { username: string; password: string; token: string; name: string; value: string; privateKey: string; passphrase: string };
const empty: Fields = { username: "", password: "", token: "", name: "", value: "", privateKey: "", passphrase: "" };

// The credential being written: its kind ("" for none) and its fields.
export function useCredentialDraft() {
  const [kind, setKind] = useState<CredentialKind | "">("");
  const [fields, setFields] = useState<Fields>(empty);
  return {
    kind,
    fields,
    setKind,
    set: (field: keyof Fields, value: string) => setFields((f) => ({ ...f, [field]: value })),
    // The credential member of a create or update body; undefined for none.
    body: () => {
      const f = fields;
      const given = (v: string) => v || undefined;
      switch (kind) {
        case "basic":
          return { kind, username: given(f.username), password: given(f.password) };
        case "bearer":
          return { kind, token: given(f.token) };
        case "header":
          return { kind, name: given(f.name), value: given(f.value) };
        case "sshKey":
          return { kind, privateKey: given(f.privateKey), passphrase: given(f.passphrase), username: given(f.username) };
        default:
          return undefined;
      }
    },
    clear: () => setFields(empty),
  };
}
export type CredentialDraft = ReturnType<typeof useCredentialDraft>;

// The kind and the fields it needs. `allowNone` offers "None" (the create
// form); `error` is the save's problem, whose credential.<field> errors go
// under their fields.
export function CredentialFields({
  connectorKind,
  draft,
  error,
  allowNone,
}: {
  connectorKind: string;
  draft: CredentialDraft;
  error: unknown;
  allowNone?: boolean;
}) {
  const s = useS();
  const id = useId();
  const kinds = credentialKindsFor(connectorKind);
  const kind = draft.kind;
  const err = (field: string) => <FieldError error={error} field={field} id={`${id}-${field}-err`} />;
  const text = (field: keyof Fields, label: string, secret: boolean) => {
    const errorField = `credential.${field}`;
    return (
      <div className="field">
        <label htmlFor={`${id}-${field}`}>{label}</label>
        <input
          id={`${id}-${field}`}
          name={`credential-${field}`}
          type={secret ? "password" : "text"}
          autoComplete={secret ? "new-password" : "off"}
          spellCheck={false}
          value={draft.fields[field]}
          onChange={(e) => draft.set(field, e.target.value)}
          aria-describedby={`${id}-${errorField}-err`}
        />
        {err(errorField)}
      </div>
    );
  };
  return (
    <fieldset className="credential-fields" data-credential-form>
      <legend>{s.credential}</legend>
      <div className="field">
        <label htmlFor={`${id}-kind`}>{s.credentialKind}</label>
        <select
          id={`${id}-kind`}
          name="credential-kind"
          value={kind}
          onChange={(e) => draft.setKind(e.target.value as CredentialKind | "")}
          aria-describedby={`${id}-kind-hint ${id}-credential-err`}
        >
          {(allowNone || !kind) && <option value="">{allowNone ? s.credentialNone : "—"}</option>}
          {kinds.map((k) => (
            <option key={k} value={k}>
              {s.credentialKinds[k]}
            </option>
          ))}
        </select>
        <span className="hint" id={`${id}-kind-hint`}>
          {kind ? s.credentialKindHints[kind] : s.credentialLead}
        </span>
        {err("credential")}
      </div>
      {kind === "basic" && (
        <>
          {text("username", s.credentialUsername, false)}
          {text("password", s.credentialPassword, true)}
        </>
      )}
      {kind === "bearer" && text("token", s.credentialToken, true)}
      {kind === "header" && (
        <>
          {text("name", s.credentialHeaderName, false)}
          {text("value", s.credentialHeaderValue, true)}
        </>
      )}
      {kind === "sshKey" && (
        <>
          <div className="field">
            <label htmlFor={`${id}-privateKey`}>{s.credentialPrivateKey}</label>
            {/* A key is several lines, which a password input would join: a
                textarea, kept out of autocomplete and spell checking. */}
            <textarea
              id={`${id}-privateKey`}
              name="credential-privateKey"
              className="secret-text"
              rows={4}
              autoComplete="off"
              spellCheck={false}
              value={draft.fields.privateKey}
              onChange={(e) => draft.set("privateKey", e.target.value)}
              aria-describedby={`${id}-credential.privateKey-err`}
            />
            {err("credential.privateKey")}
          </div>
          {text("passphrase", s.credentialPassphrase, true)}
          {text("username", s.credentialSshUser, false)}
        </>
      )}
    </fieldset>
  );
}

// Set or not, and what the API shows of it: kind, user name, header name.
function CredentialState({ credential }: { credential: Connector["credential"] }) {
  const s = useS();
  if (!credential.set) return <span data-credential="not-set">{s.credentialNotSet}</span>;
  const detail = credential.username ?? credential.headerName;
  return (
    <span data-credential="set">
      {s.credentialSet}: {credential.kind ? s.credentialKinds[credential.kind] : ""}
      {detail && (
        <>
          {" "}
          (<code>{detail}</code>)
        </>
      )}
    </span>
  );
}

// The connector page's credential: its state, a form to set or replace it
// (an update that sends the connector's name, settings and schedule back as
// they are) and a button to remove it. `onChanged` reloads the connector.
export function CredentialSection({ connector, onChanged }: { connector: Connector; onChanged: () => void }) {
  const s = useS();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState("");
  const draft = useCredentialDraft();
  const save = useAction();
  const put = (credential: ReturnType<CredentialDraft["body"]> | null) =>
    call("put", "/trust-admin/connectors/{id}", {
      params: { id: connector.id },
      body: {
        name: connector.name,
        settings: connector.settings as never,
        scheduleMinutes: connector.scheduleMinutes,
        credential: credential as never,
      },
    });
  const set = connector.credential.set;
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-connector-credential>
      <h2 id={`${id}-title`}>{s.credential}</h2>
      <p className="hint">{s.credentialLead}</p>
      <dl className="facts">
        <dt>{s.credential}</dt>
        <dd>
          <CredentialState credential={connector.credential} />
        </dd>
      </dl>
      {notice && <p role="status">{notice}</p>}
      {!editing && (
        <p className="actions">
          <button
            type="button"
            onClick={() => {
              setNotice("");
              draft.clear();
              draft.setKind(credentialKindsFor(connector.kind)[0] ?? "");
              setEditing(true);
            }}
          >
            {set ? s.replaceCredential : s.setCredential}
          </button>
          {set && (
            <ConfirmButton
              label={s.removeCredential}
              title={s.removeCredentialTitle}
              body={<p>{s.removeCredentialBody}</p>}
              confirmLabel={s.removeCredential}
              danger
              onConfirm={async () => {
                await put(null);
                setNotice(s.credentialRemoved);
                onChanged();
              }}
            />
          )}
        </p>
      )}
      {editing && (
        <form
          aria-label={set ? s.replaceCredential : s.setCredential}
          onSubmit={async (e) => {
            e.preventDefault();
            const saved = await save.run(() => put(draft.body()));
            if (!saved) return;
            draft.clear();
            setEditing(false);
            setNotice(s.credentialSaved);
            onChanged();
          }}
        >
          <CredentialFields connectorKind={connector.kind} draft={draft} error={save.error} />
          <ErrorBox error={save.error} />
          <p className="actions">
            <button type="submit" disabled={save.busy || !draft.kind}>
              {save.busy ? s.working : s.saveCredential}
            </button>
            <button
              type="button"
              onClick={() => {
                draft.clear();
                save.clear();
                setEditing(false);
              }}
            >
              {s.cancel}
            </button>
          </p>
        </form>
      )}
    </section>
  );
}
