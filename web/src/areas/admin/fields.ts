// The generic resource form's field descriptions and their pure logic: an
// item to form values, form values to a request body, checks before sending,
// and a problem's per-field errors to the fields that show them.
// ResourceList.tsx renders them; fields.test.ts checks them.

export type FieldKind =
  | "text"
  | "textarea"
  | "email"
  | "url"
  | "number"
  | "checkbox"
  | "select"
  | "multi" // checkboxes, the values of `options`
  | "list" // one value a line (or comma-separated), sent as an array of strings
  | "json" // JSON text, sent parsed
  | "rows"; // repeated sub-forms (`rows`), sent as an array of objects

export interface FieldOption {
  value: string;
  label: string;
}

export interface FieldDef {
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  // An empty value is sent as null (else it is left out of the body).
  nullable?: boolean;
  options?: FieldOption[];
  min?: number;
  max?: number;
  maxLength?: number;
  help?: string;
  // Shown at creation only (e.g. a language's code, which cannot change).
  createOnly?: boolean;
  // Shown (and sent) only when this holds for the current values.
  showIf?: (values: FormValues) => boolean;
  // The value of a new item's field.
  initial?: FormValue;
  // kind "rows": the fields of one row (text, checkbox, select, number).
  rows?: FieldDef[];
  // kind "rows": the label of one row ("Item"), numbered in the form.
  rowLabel?: string;
}

export type RowValue = Record<string, string | boolean> & { id?: string };
export type FormValue = string | boolean | string[] | RowValue[];
export type FormValues = Record<string, FormValue>;
export type FieldErrors = Record<string, string[]>;

export interface ValidationMessages {
  required: string;
  number: string;
  range: string; // {min}, {max}
  tooLong: string; // {max}
  json: string;
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

function toFormValue(field: FieldDef, raw: unknown): FormValue {
  switch (field.kind) {
    case "checkbox":
      return raw === undefined || raw === null ? Boolean(field.initial ?? false) : Boolean(raw);
    case "multi":
      return Array.isArray(raw) ? raw.map(String) : ((field.initial as string[] | undefined) ?? []);
    case "list":
      return Array.isArray(raw) ? raw.map(String).join("\n") : String(field.initial ?? "");
    case "json":
      return raw === undefined || raw === null ? String(field.initial ?? "") : JSON.stringify(raw, null, 2);
    case "rows":
      return Array.isArray(raw) ? raw.map((r) => rowToForm(field, r as Record<string, unknown>)) : [];
    case "select":
      if (raw === undefined || raw === null)
        return String(field.initial ?? (field.nullable || !field.options?.length ? "" : field.options[0].value));
      return String(raw);
    default:
      return raw === undefined || raw === null ? String(field.initial ?? "") : String(raw);
  }
}

function rowToForm(field: FieldDef, row: Record<string, unknown>): RowValue {
  const out: RowValue = {};
  if (typeof row.id === "string") out.id = row.id;
  for (const sub of field.rows ?? []) out[sub.name] = toFormValue(sub, row[sub.name]) as string | boolean;
  return out;
}

// A new row of a "rows" field, with each sub-field's initial value.
export function emptyRow(field: FieldDef): RowValue {
  return rowToForm(field, {});
}

// The form's values for `item` (editing) or for a new one (no item).
export function initialValues(fields: FieldDef[], item?: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) values[f.name] = toFormValue(f, item?.[f.name]);
  return values;
}

// The fields shown for these values: createOnly ones only when creating,
// conditional ones only when their condition holds.
export function visibleFields(fields: FieldDef[], values: FormValues, editing: boolean): FieldDef[] {
  return fields.filter((f) => !(editing && f.createOnly) && (!f.showIf || f.showIf(values)));
}

const fill = (s: string, v: Record<string, string | number>) => s.replace(/\{(\w+)\}/g, (_, k: string) => String(v[k] ?? ""));

function checkOne(f: FieldDef, value: FormValue, msg: ValidationMessages): string | null {
  if (f.kind === "checkbox") return null;
  if (f.kind === "multi" || f.kind === "rows") {
    return f.required && (value as unknown[]).length === 0 ? msg.required : null;
  }
  const text = String(value ?? "");
  if (f.kind === "list") return f.required && splitList(text).length === 0 ? msg.required : null;
  if (isBlank(text)) return f.required ? msg.required : null;
  if (f.kind === "number") {
    const n = Number(text.trim());
    if (!Number.isInteger(n)) return msg.number;
    if ((f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max))
      return fill(msg.range, { min: f.min ?? "", max: f.max ?? "" });
  }
  if (f.kind === "json") {
    try {
      JSON.parse(text);
    } catch {
      return msg.json;
    }
  }
  if (f.maxLength !== undefined && text.length > f.maxLength) return fill(msg.tooLong, { max: f.maxLength });
  return null;
}

// What the form can tell before sending: required, whole numbers in range,
// length, JSON that parses. Keys as the server names fields (`items[0].text`).
export function validate(fields: FieldDef[], values: FormValues, msg: ValidationMessages, editing = false): FieldErrors {
  const errors: FieldErrors = {};
  for (const f of visibleFields(fields, values, editing)) {
    const problem = checkOne(f, values[f.name], msg);
    if (problem) errors[f.name] = [problem];
    if (f.kind === "rows") {
      (values[f.name] as RowValue[]).forEach((row, i) => {
        for (const sub of f.rows ?? []) {
          const p = checkOne(sub, row[sub.name], msg);
          if (p) errors[`${f.name}[${i}].${sub.name}`] = [p];
        }
      });
    }
  }
  return errors;
}

export function splitList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function toBodyValue(f: FieldDef, value: FormValue): unknown {
  switch (f.kind) {
    case "checkbox":
      return Boolean(value);
    case "multi":
      return value;
    case "list":
      return splitList(String(value));
    case "rows":
      return (value as RowValue[]).map((row) => {
        const out: Record<string, unknown> = {};
        if (row.id) out.id = row.id;
        for (const sub of f.rows ?? []) {
          const v = toBodyValue(sub, row[sub.name] ?? "");
          if (v !== undefined) out[sub.name] = v;
        }
        return out;
      });
    default: {
      const text = String(value ?? "");
      if (isBlank(text)) return f.nullable ? null : undefined;
      if (f.kind === "number") return Number(text.trim());
      if (f.kind === "json") return JSON.parse(text);
      return text;
    }
  }
}

// The request body: each visible field converted; a blank optional value is
// left out (or null when the field is nullable, to clear it).
export function toBody(fields: FieldDef[], values: FormValues, editing = false): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of visibleFields(fields, values, editing)) {
    const v = toBodyValue(f, values[f.name]);
    if (v !== undefined) body[f.name] = v;
  }
  return body;
}

// A problem's `errors` by the form field that shows them: a field's own name,
// its rows (`items[2].text`) and its members (`textPattern.text`) go to it,
// `aliases` maps other server names to form fields; the rest under "".
export function problemFieldErrors(
  errors: { field: string; message: string }[] | undefined,
  fields: FieldDef[],
  aliases: Record<string, string> = {},
): FieldErrors {
  const out: FieldErrors = {};
  const add = (key: string, message: string) => (out[key] ??= []).push(message);
  for (const e of errors ?? []) {
    const aliased = aliases[e.field];
    if (aliased) {
      add(aliased, e.message);
      continue;
    }
    if (fields.some((f) => f.name === e.field)) {
      add(e.field, e.message);
      continue;
    }
    const rowField = /^(\w+)\[(\d+)\]\.(\w+)$/.exec(e.field);
    if (rowField && fields.some((f) => f.name === rowField[1] && f.kind === "rows")) {
      add(e.field, e.message);
      continue;
    }
    const owner = fields.find((f) => e.field.startsWith(`${f.name}.`) || e.field.startsWith(`${f.name}[`));
    if (owner) add(owner.name, `${e.field}: ${e.message}`);
    else add("", `${e.field}: ${e.message}`);
  }
  return out;
}
