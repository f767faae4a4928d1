// One generic, typed list of a resource: columns, a create and edit form
// built from field descriptions (fields.ts), delete with confirmation, an
// empty state. Every configuration page of the admin area is one of these.
import { useEffect, useId, useState, type ReactNode } from "react";
import { Problem, type Me } from "../../api/client";
import { format } from "../../i18n";
import { ConfirmDialog, Dialog, EmptyState, ErrorBox, Loading, useAction } from "../../ui";
import {
  emptyRow,
  initialValues,
  problemFieldErrors,
  toBody,
  validate,
  visibleFields,
  type FieldDef,
  type FieldErrors,
  type FormValues,
  type RowValue,
} from "./fields";
import { AdminPage } from "./AdminPage";
import { useS } from "./strings";
import "./admin.css";

export interface Column<T> {
  label: string;
  render: (item: T) => ReactNode;
}

export interface ResourceConfig<T> {
  // For data-* selectors: rows are <tr data-resource={kind} data-row-name={rowName}>.
  kind: string;
  title: string;
  intro?: ReactNode;
  // One item's name in sentences: "New {noun}", "Delete {noun} …?".
  noun: string;
  empty: string;
  load: () => Promise<T[]>;
  rowKey: (item: T) => string;
  rowName: (item: T) => string;
  columns: Column<T>[];
  fields: FieldDef[];
  create?: (body: Record<string, unknown>) => Promise<unknown>;
  update?: (item: T, body: Record<string, unknown>) => Promise<unknown>;
  remove?: (item: T) => Promise<unknown>;
  // Whether this item offers Delete at all (default: yes).
  canRemove?: (item: T) => boolean;
  // A second way to delete, offered when the first is refused with a
  // problem it applies to (e.g. "in use": detach, then delete).
  forceRemove?: { applies: (problem: Problem) => boolean; label: (item: T) => string; run: (item: T) => Promise<unknown> };
  // The full item before editing, when the list leaves fields out.
  loadOne?: (item: T) => Promise<T>;
  // Item to form (before initialValues) and body to request (after toBody).
  decode?: (item: T) => Record<string, unknown>;
  encode?: (body: Record<string, unknown>, values: FormValues) => Record<string, unknown>;
  // Server field names shown under another form field.
  aliases?: Record<string, string>;
  // More buttons per row (set default, test, …); `refresh` reloads the list.
  rowActions?: (item: T, refresh: () => void) => ReactNode;
  // More content under the list (e.g. a test form).
  after?: ReactNode;
}

// The list, reloaded when `generation` changes; the rows stay on screen while
// it reloads (so a row's open dialog or message survives a refresh).
function useList<T>(load: () => Promise<T[]>, generation: number, enabled: boolean) {
  const [state, setState] = useState<{ data?: T[]; error?: unknown }>({});
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    load().then(
      (data) => live && setState({ data }),
      (error) => live && setState((prev) => ({ data: prev.data, error })),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [generation, enabled]);
  return { ...state, loading: state.data === undefined && state.error === undefined };
}

export function ResourcePage<T>({ config, me }: { config: ResourceConfig<T>; me: Me }) {
  const s = useS();
  const [generation, setGeneration] = useState(0);
  const refresh = () => setGeneration((g) => g + 1);
  // Non-owners see the 403 problem (AdminPage); nothing is loaded for them.
  const list = useList(config.load, generation, me.tenantRole === "Owner");
  const [editing, setEditing] = useState<{ item?: T; values: FormValues } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const opening = useAction();
  const deletion = useAction();

  const openEdit = (item: T) =>
    opening.run(async () => {
      const full = config.loadOne ? await config.loadOne(item) : item;
      const raw = (config.decode ? config.decode(full) : full) as Record<string, unknown>;
      setEditing({ item: full, values: initialValues(config.fields, raw) });
    });

  return (
    <AdminPage title={config.title} me={me}>
      {config.intro && <div className="intro">{config.intro}</div>}
      {config.create && (
        <p>
          <button type="button" onClick={() => setEditing({ values: initialValues(config.fields) })}>
            {format(s.newThing, { noun: config.noun })}
          </button>
        </p>
      )}
      <ErrorBox error={list.error ?? opening.error} />
      {list.loading && <Loading />}
      {list.data && list.data.length === 0 && (
        <EmptyState>
          <p>{config.empty}</p>
        </EmptyState>
      )}
      {list.data && list.data.length > 0 && (
        <div className="table-wrap">
          <table className="resource-list" data-resource={config.kind}>
            <thead>
              <tr>
                {config.columns.map((c) => (
                  <th key={c.label} scope="col">
                    {c.label}
                  </th>
                ))}
                <th scope="col">{s.actions}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((item) => (
                <tr key={config.rowKey(item)} data-row-name={config.rowName(item)}>
                  {config.columns.map((c) => (
                    <td key={c.label}>{c.render(item)}</td>
                  ))}
                  <td className="row-actions">
                    {config.update && (
                      <button
                        type="button"
                        disabled={opening.busy}
                        aria-label={format(s.editNamed, { name: config.rowName(item) })}
                        onClick={() => openEdit(item)}
                      >
                        {s.edit}
                      </button>
                    )}
                    {config.rowActions?.(item, refresh)}
                    {config.remove && (config.canRemove?.(item) ?? true) && (
                      <button
                        type="button"
                        className="danger"
                        aria-label={format(s.deleteNamed, { name: config.rowName(item) })}
                        onClick={() => {
                          deletion.clear();
                          setDeleting(item);
                        }}
                      >
                        {s.delete}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {config.after}

      <Dialog
        open={editing !== null}
        title={editing?.item ? format(s.editThing, { noun: config.noun }) : format(s.newThing, { noun: config.noun })}
        onClose={() => setEditing(null)}
      >
        {editing && (
          <ResourceForm
            fields={config.fields}
            initial={editing.values}
            editing={editing.item !== undefined}
            aliases={config.aliases}
            onCancel={() => setEditing(null)}
            onSubmit={async (body, values) => {
              const request = config.encode ? config.encode(body, values) : body;
              if (editing.item !== undefined) await config.update!(editing.item, request);
              else await config.create!(request);
              setEditing(null);
              refresh();
            }}
          />
        )}
      </Dialog>

      <ConfirmDialog
        open={deleting !== null}
        title={format(s.deleteThing, { noun: config.noun })}
        question={deleting ? format(s.deleteQuestion, { name: config.rowName(deleting) }) : ""}
        confirmLabel={s.delete}
        busy={deletion.busy}
        error={deletion.error}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deletion.run(async () => {
            await config.remove!(deleting!);
            setDeleting(null);
            refresh();
          })
        }
        alternative={
          deleting && config.forceRemove && deletion.error instanceof Problem && config.forceRemove.applies(deletion.error)
            ? {
                label: config.forceRemove.label(deleting),
                run: () =>
                  deletion.run(async () => {
                    await config.forceRemove!.run(deleting);
                    setDeleting(null);
                    refresh();
                  }),
              }
            : undefined
        }
      />
    </AdminPage>
  );
}

// The create or edit form of a resource: its fields, checks before sending,
// and the server's problem (detail, and each field's errors beside it).
export function ResourceForm(props: {
  fields: FieldDef[];
  initial: FormValues;
  editing: boolean;
  aliases?: Record<string, string>;
  submitLabel?: string;
  onCancel?: () => void;
  onSubmit: (body: Record<string, unknown>, values: FormValues) => Promise<void>;
}) {
  const s = useS();
  const [values, setValues] = useState<FormValues>(props.initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const action = useAction();
  const shown = visibleFields(props.fields, values, props.editing);
  const set = (name: string, value: FormValues[string]) => setValues((v) => ({ ...v, [name]: value }));
  const serverErrors =
    action.error instanceof Problem ? problemFieldErrors(action.error.errors, props.fields, props.aliases) : {};
  const all: FieldErrors = { ...serverErrors, ...errors };

  return (
    <form
      className="resource-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const found = validate(props.fields, values, s.validation, props.editing);
        setErrors(found);
        if (Object.keys(found).length > 0) return;
        action.run(() => props.onSubmit(toBody(props.fields, values, props.editing), values));
      }}
    >
      {shown.map((f) => (
        <FieldInput key={f.name} field={f} value={values[f.name]} errors={all} onChange={(v) => set(f.name, v)} />
      ))}
      {Object.keys(errors).length > 0 && (
        <p className="form-error" role="alert">
          {s.fixFields}
        </p>
      )}
      <ErrorBox error={action.error} />
      {all[""] && (
        <ul className="field-errors" aria-label={s.otherProblems}>
          {all[""].map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      <div className="form-buttons">
        <button type="submit" disabled={action.busy}>
          {action.busy ? s.working : (props.submitLabel ?? s.save)}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            {s.cancel}
          </button>
        )}
      </div>
    </form>
  );
}

function Messages({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <span id={id} className="field-error">
      {messages.join(" ")}
    </span>
  );
}

function FieldInput({
  field,
  value,
  errors,
  onChange,
  errorKey = field.name,
}: {
  field: FieldDef;
  value: FormValues[string];
  errors: FieldErrors;
  onChange: (v: FormValues[string]) => void;
  errorKey?: string;
}) {
  const s = useS();
  const id = useId();
  const errId = `${id}-err`;
  const helpId = `${id}-help`;
  const messages = errors[errorKey];
  const described = [field.help ? helpId : "", messages ? errId : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name: field.name,
    "aria-invalid": messages ? true : undefined,
    "aria-describedby": described,
  };
  const label = (
    <>
      {field.label}
      {field.required && <span aria-hidden="true"> *</span>}
    </>
  );
  const help = field.help && (
    <span id={helpId} className="help">
      {field.help}
    </span>
  );

  switch (field.kind) {
    case "checkbox":
      return (
        <div className="field field-check">
          <input {...common} type="checkbox" checked={Boolean(value)} onChange={(e) => onChange(e.target.checked)} />
          <label htmlFor={id}>{field.label}</label>
          {help}
          <Messages id={errId} messages={messages} />
        </div>
      );
    case "multi":
      return (
        <fieldset className="field" aria-describedby={described}>
          <legend>{label}</legend>
          <div className="checks">
            {field.options?.map((o) => {
              const list = value as string[];
              return (
                <label key={o.value} className="check">
                  <input
                    type="checkbox"
                    name={field.name}
                    value={o.value}
                    checked={list.includes(o.value)}
                    onChange={(e) => onChange(e.target.checked ? [...list, o.value] : list.filter((x) => x !== o.value))}
                  />{" "}
                  {o.label}
                </label>
              );
            })}
          </div>
          {help}
          <Messages id={errId} messages={messages} />
        </fieldset>
      );
    case "rows": {
      const rows = value as RowValue[];
      const rowLabel = field.rowLabel ?? field.label;
      return (
        <fieldset className="field rows" aria-describedby={described}>
          <legend>{label}</legend>
          {help}
          {rows.length === 0 && <p className="help">{s.noRows}</p>}
          <ol>
            {rows.map((row, i) => (
              <li key={i} className="row" data-row-index={i}>
                {field.rows?.map((sub) => (
                  <FieldInput
                    key={sub.name}
                    field={{ ...sub, label: `${rowLabel} ${i + 1}: ${sub.label}` }}
                    value={row[sub.name]}
                    errors={errors}
                    errorKey={`${field.name}[${i}].${sub.name}`}
                    onChange={(v) => onChange(rows.map((r, j) => (j === i ? { ...r, [sub.name]: v as string | boolean } : r)))}
                  />
                ))}
                <button
                  type="button"
                  aria-label={format(s.removeRow, { row: `${rowLabel} ${i + 1}` })}
                  onClick={() => onChange(rows.filter((_, j) => j !== i))}
                >
                  {s.remove}
                </button>
              </li>
            ))}
          </ol>
          <button type="button" onClick={() => onChange([...rows, emptyRow(field)])}>
            {format(s.addRow, { row: rowLabel })}
          </button>
          <Messages id={errId} messages={messages} />
        </fieldset>
      );
    }
    case "select":
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <select {...common} value={String(value)} onChange={(e) => onChange(e.target.value)}>
            {field.nullable && <option value="">{s.none}</option>}
            {field.options?.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {help}
          <Messages id={errId} messages={messages} />
        </div>
      );
    case "textarea":
    case "list":
    case "json":
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <textarea
            {...common}
            rows={field.kind === "json" ? 8 : 3}
            className={field.kind === "json" ? "code" : undefined}
            value={String(value)}
            onChange={(e) => onChange(e.target.value)}
          />
          {help}
          <Messages id={errId} messages={messages} />
        </div>
      );
    default:
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <input
            {...common}
            type={field.kind === "number" ? "text" : field.kind}
            inputMode={field.kind === "number" ? "numeric" : undefined}
            value={String(value)}
            onChange={(e) => onChange(e.target.value)}
          />
          {help}
          <Messages id={errId} messages={messages} />
        </div>
      );
  }
}
