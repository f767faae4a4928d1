// Pieces the plugins' components share: a settings form driven by a field
// list (saved with PUT /api/tenant/plugins/{id}/settings, the server's
// field errors shown beside it) and the field-error list.
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { ConfirmDialog, ErrorBox, useAction } from "../../ui";
import { fieldErrorsOf, putPluginSettings } from "../api";
import { refreshServerPlugins } from "../serverPlugins";
import { useS } from "../strings";

export function FieldErrors({ error }: { error: unknown }) {
  const errors = fieldErrorsOf(error);
  if (errors.length === 0) return null;
  return (
    <ul className="field-errors" data-field-errors>
      {errors.map((e) => (
        <li key={e.field + e.message} data-field={e.field}>
          <code>{e.field}</code>: {e.message}
        </li>
      ))}
    </ul>
  );
}

export type FieldKind = "list" | "int" | "bool" | "select";
export interface FieldDef {
  name: string;
  kind: FieldKind;
  label: string;
  help?: string;
  options?: { value: string; label: string }[];
  min?: number;
  max?: number;
}

type Values = Record<string, string | boolean>;

export function toFormValues(fields: FieldDef[], settings: Record<string, unknown>): Values {
  const v: Values = {};
  for (const f of fields) {
    const x = settings[f.name];
    if (f.kind === "bool") v[f.name] = x === true;
    else if (f.kind === "list") v[f.name] = Array.isArray(x) ? x.join("\n") : "";
    else v[f.name] = x === undefined || x === null ? "" : String(x);
  }
  return v;
}

// The settings object from the form: lists one item a line (blank lines
// dropped), integers as numbers (empty: left out, the plugin's default),
// anything not a number sent as typed so the server names the field.
export function fromFormValues(fields: FieldDef[], values: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const x = values[f.name];
    if (f.kind === "bool") out[f.name] = x === true;
    else if (f.kind === "list")
      out[f.name] = String(x ?? "")
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
    else if (f.kind === "int") {
      const t = String(x ?? "").trim();
      if (t !== "") out[f.name] = /^-?\d+$/.test(t) ? Number(t) : t;
    } else if (String(x ?? "") !== "") out[f.name] = String(x);
  }
  return out;
}

export function SettingsForm({
  pluginId,
  fields,
  settings,
  onSaved,
  save,
  extra,
}: {
  pluginId: string;
  fields: FieldDef[];
  settings: Record<string, unknown>;
  onSaved?: () => void;
  // Where to save; default PUT /api/tenant/plugins/{id}/settings.
  save?: (value: Record<string, unknown>) => Promise<unknown>;
  extra?: ReactNode;
}) {
  const s = useS();
  const id = useId();
  const [values, setValues] = useState<Values>(() => toFormValues(fields, settings));
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const value = fromFormValues(fields, values);
    const ok = await action.run(async () => {
      await (save ? save(value) : putPluginSettings(pluginId, value));
      return true;
    });
    if (ok) {
      setSaved(true);
      if (!save) await refreshServerPlugins();
      onSaved?.();
    }
  };
  return (
    <form className="plugin-settings-form" onSubmit={submit} data-settings-form={pluginId}>
      {extra}
      {fields.map((f) => {
        const fid = `${id}-${f.name}`;
        const help = f.help ? <small id={`${fid}-help`}>{f.help}</small> : null;
        const describedBy = f.help ? `${fid}-help` : undefined;
        if (f.kind === "bool")
          return (
            <div className="field field-check" key={f.name}>
              <input
                id={fid}
                type="checkbox"
                name={f.name}
                aria-describedby={describedBy}
                checked={values[f.name] === true}
                onChange={(e) => setValues({ ...values, [f.name]: e.target.checked })}
              />
              <label htmlFor={fid}>{f.label}</label>
              {help}
            </div>
          );
        return (
          <div className="field" key={f.name}>
            <label htmlFor={fid}>{f.label}</label>
            {f.kind === "list" ? (
              <textarea
                id={fid}
                name={f.name}
                rows={3}
                aria-describedby={describedBy}
                value={String(values[f.name] ?? "")}
                onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
              />
            ) : f.kind === "select" ? (
              <select id={fid} name={f.name} value={String(values[f.name] ?? "")} onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}>
                <option value="">{s.defaultOption}</option>
                {f.options?.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={fid}
                name={f.name}
                inputMode="numeric"
                aria-describedby={describedBy}
                value={String(values[f.name] ?? "")}
                onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
              />
            )}
            {help}
          </div>
        );
      })}
      <ErrorBox error={action.error} />
      <FieldErrors error={action.error} />
      <button type="submit" disabled={action.busy}>
        {action.busy ? s.saving : s.saveSettings}
      </button>
      {saved && (
        <span role="status" className="saved">
          {s.saved}
        </span>
      )}
    </form>
  );
}

// A delete, asked first: `remove` runs on confirming, then `done`.
export function ConfirmDelete({
  open,
  title,
  explain,
  remove,
  close,
  done,
}: {
  open: boolean;
  title: string;
  explain: string;
  remove: () => Promise<unknown>;
  close: () => void;
  done: () => void;
}) {
  const s = useS();
  const act = useAction();
  return (
    <ConfirmDialog
      open={open}
      title={title}
      question={explain}
      confirmLabel={s.delete}
      busy={act.busy}
      error={act.error}
      onCancel={close}
      onConfirm={async () => {
        const ok = await act.run(async () => {
          await remove();
          return true;
        });
        if (ok) {
          close();
          done();
        }
      }}
    />
  );
}
