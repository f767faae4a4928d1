// Pieces the trust pages share: a secret shown once, a confirmed action,
// field errors beside their fields, dates.
import { useState, type ReactNode } from "react";
import { ConfirmDialog, CopyButton, ErrorBox, Progress, useAction, useLoad } from "../../ui";
import { download, errorFor } from "./api";
import { useS } from "./strings";
import "./trust.css";

// A secret the server shows once: the value, a copy button and the warning.
export function SecretOnce({ secret, clientId, onDone }: { secret: string; clientId?: string; onDone: () => void }) {
  const s = useS();
  return (
    <section className="secret-once" aria-labelledby="secret-once-title" data-secret-once>
      <h2 id="secret-once-title">{s.secretTitle}</h2>
      <p className="warning-text">
        <strong>{s.secretWarning}</strong>
      </p>
      {clientId && (
        <p>
          {s.clientId}: <code data-client-id>{clientId}</code>
        </p>
      )}
      <p className="secret-value">
        <code data-secret>{secret}</code>
      </p>
      <p className="actions">
        <CopyButton text={secret} label={s.copySecret} copiedLabel={s.copied} />
        <button type="button" onClick={onDone}>
          {s.secretDone}
        </button>
      </p>
    </section>
  );
}

// A button whose action asks first, in a dialog; the action's problem is
// shown in the dialog and keeps it open.
export function ConfirmButton({
  label,
  title,
  body,
  confirmLabel,
  danger,
  onConfirm,
  disabled,
}: {
  label: string;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  disabled?: boolean;
  onConfirm: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const action = useAction();
  const close = () => {
    setOpen(false);
    action.clear();
  };
  return (
    <>
      <button type="button" className={danger ? "danger" : undefined} disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </button>
      <ConfirmDialog
        open={open}
        title={title}
        question={body}
        confirmLabel={confirmLabel}
        danger={!!danger}
        busy={action.busy}
        error={action.error}
        onCancel={close}
        onConfirm={async () => {
          let ok = false;
          await action.run(async () => {
            await onConfirm();
            ok = true;
          });
          if (ok) setOpen(false);
        }}
      />
    </>
  );
}

// The message a validation problem gives this field, under it.
export function FieldError({ error, field, id }: { error: unknown; field: string; id: string }) {
  const message = errorFor(error, field);
  if (!message) return null;
  return (
    <span className="field-error" id={id} role="alert">
      {message}
    </span>
  );
}

// The scopes a key is minted with: one checkbox each, and the server's
// message for the field.
export function ScopesField<S extends string>({
  choices,
  value,
  onChange,
  error,
  id,
}: {
  choices: readonly S[];
  value: S[];
  onChange: (scopes: S[]) => void;
  error: unknown;
  id: string;
}) {
  const s = useS();
  return (
    <fieldset>
      <legend>{s.scopes}</legend>
      {choices.map((scope) => (
        <label key={scope} className="inline">
          <input
            type="checkbox"
            name="scope"
            value={scope}
            checked={value.includes(scope)}
            onChange={(e) => onChange(e.target.checked ? [...value, scope] : value.filter((x) => x !== scope))}
          />{" "}
          {scope}
        </label>
      ))}
      <FieldError error={error} field="scopes" id={id} />
    </fieldset>
  );
}

export function fmtTime(iso: string | null | undefined, none = "—"): string {
  if (!iso) return none;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

export function Yes({ value }: { value: boolean }) {
  const s = useS();
  return <>{value ? s.yes : s.no}</>;
}

export function TrustBadge({ value, label }: { value: string; label?: string }) {
  return <span className={`badge trust-badge trust-${value.toLowerCase().replace(/[^a-z_]/g, "")}`}>{label ?? value}</span>;
}

// A table that may scroll sideways (phones): a named, focusable region so
// the keyboard can scroll it too.
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

// useLoad, plus `set` to replace the data with a write's answer without a
// reload (so a form stays mounted and can say "Saved").
export function useResource<T>(load: () => Promise<T>, deps: unknown[]) {
  const loaded = useLoad(load, deps);
  const [override, setOverride] = useState<{ data: T; from: unknown } | null>(null);
  const data = override && override.from === loaded.data ? override.data : loaded.data;
  return { ...loaded, data, set: (value: T) => setOverride({ data: value, from: loaded.data }) };
}

export type DownloadFile = { label: string; url: string; fallbackName: string };

// Buttons that save files the server answers (exports), each fetched with
// the caller's token under the name the server gives: a progress line while
// one is fetched, the error of the last try, then the name saved.
export function DownloadButtons({ files }: { files: DownloadFile[] }) {
  const s = useS();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const get = async (file: DownloadFile) => {
    setSaved(null);
    setError(null);
    setBusy((b) => new Set(b).add(file.label));
    try {
      setSaved((await download(file.url, file.fallbackName)).name);
    } catch (e) {
      setError(e);
    } finally {
      setBusy((b) => new Set([...b].filter((label) => label !== file.label)));
    }
  };
  return (
    <>
      <p className="actions">
        {files.map((f) => (
          <button key={f.label} type="button" disabled={busy.has(f.label)} onClick={() => get(f)}>
            {f.label}
          </button>
        ))}
      </p>
      {busy.size > 0 && <Progress label={s.downloading} />}
      <ErrorBox error={error} />
      {saved && <p role="status">{s.downloaded.replace("{name}", saved)}</p>}
    </>
  );
}
