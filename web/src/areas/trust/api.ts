// The trust area's calls: `call` from api/client.ts, but keeping a
// validation problem's field errors (`errors: [{field, message}]`) so forms
// can show them by their fields; file downloads with the bearer token.
import { Problem, session, type Answer } from "../../api/client";
import type { paths } from "../../api/schema";

type Method = "get" | "post" | "put" | "patch" | "delete";
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Body<P extends keyof paths, M extends Method> = Op<P, M> extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;

export interface FieldError {
  field: string;
  message: string;
}

// A problem with the field errors of a 400 validation_failed.
export class FieldProblem extends Problem {
  constructor(status: number, title: string, detail: string, code: string | undefined, readonly errors: FieldError[]) {
    super(status, title, detail, code);
  }
}

export function fieldErrors(error: unknown): FieldError[] {
  return error instanceof FieldProblem ? error.errors : [];
}

export function errorFor(error: unknown, field: string): string | undefined {
  return fieldErrors(error).find((e) => e.field === field || e.field.startsWith(field + "."))?.message;
}

function fill(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

export function withQuery(path: string, query?: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

async function send(method: string, url: string, body: unknown, accept = "application/json"): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  try {
    return await fetch(url, { method: method.toUpperCase(), headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Problem(0, "Network error", e instanceof Error ? e.message : String(e));
  }
}

async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text();
  let p: { title?: string; detail?: string; code?: string; errors?: FieldError[] } = {};
  try {
    p = text ? JSON.parse(text) : {};
  } catch {
    /* not JSON */
  }
  const errors = Array.isArray(p.errors) ? p.errors.filter((e) => e && typeof e.field === "string") : [];
  const detail = (p.detail ?? text.slice(0, 300)) + (errors.length ? " " + errors.map((e) => `${e.field}: ${e.message}`).join("; ") : "");
  return new FieldProblem(response.status, p.title ?? response.statusText, detail, p.code, errors);
}

// Typed like api/client.ts's call, with `query` for the query string.
export async function tcall<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  options: { params?: Record<string, string>; query?: Record<string, string | undefined>; body?: Body<P, M> } = {},
): Promise<Answer<P, M>> {
  const response = await send(method, withQuery(fill(path as string, options.params ?? {}), options.query), options.body);
  if (!response.ok) throw await problemOf(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as Answer<P, M>;
}

// Fetches a file with the bearer token and hands it to the browser as a
// download (Blob -> object URL -> <a download>). Answers the file name used.
export async function download(url: string, fallbackName: string): Promise<{ name: string; size: number }> {
  const response = await send("get", url, undefined, "*/*");
  if (!response.ok) throw await problemOf(response);
  const blob = await response.blob();
  const name = filenameFromDisposition(response.headers.get("Content-Disposition")) ?? fallbackName;
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10000);
  return { name, size: blob.size };
}

// The file name of a Content-Disposition header: filename* (RFC 5987,
// UTF-8) wins over filename; path separators and control characters are
// dropped so the name cannot climb out of the downloads folder.
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    try {
      name = decodeURIComponent(star[2].trim());
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
    const bare = /filename\s*=\s*([^;\s]+)/i.exec(header);
    name = quoted ? quoted[1].replace(/\\(.)/g, "$1") : bare ? bare[1] : null;
  }
  if (name === null) return null;
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[/\\\u0000-\u001f\u007f]/g, "_").replace(/^\.+/, "").trim();
  return name || null;
}

// The name the server gives an export (docs/reports.md), for when the
// header is not readable.
export function reportFileName(key: string, from: string, to: string, appId: string | null | undefined, format: "csv" | "json"): string {
  return `credence-${key}-${from}-to-${to}${appId ? `-app-${appId}` : ""}.${format}`;
}

// UTC day as YYYY-MM-DD, `offset` days from `now`.
export function utcDay(now: Date, offset = 0): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset));
  return d.toISOString().slice(0, 10);
}

export type App = Answer<"/trust-admin/apps/{id}", "get">;
export type AppKey = Answer<"/trust-admin/apps/{id}/keys", "get">["items"][number];
export type AppStats = Answer<"/trust-admin/apps/{id}/stats", "get">;
export type ApiKey = Answer<"/api/apikeys", "get">[number];
export type PolicyLevel = Answer<"/trust-admin/policies/tenant", "get">;
export type Policy = PolicyLevel["policy"];
export type Effective = PolicyLevel["effective"];
export type ContextVocabulary = Answer<"/trust-admin/context", "get">;
export type Sensitivity = Answer<"/trust-admin/sensitivity", "get">;
export type Connector = Answer<"/trust-admin/connectors/{id}", "get">;
export type ConnectorRun = Answer<"/trust-admin/connectors/{id}/runs/{runId}", "get">;
export type Finding = Answer<"/trust-admin/findings", "get">["findings"][number];
export type Decision = Answer<"/api/trust/decisions/{decisionId}", "get">;
export type Verification = Answer<"/trust-admin/ledger/verify", "get">;
export type ReportInfo = Answer<"/trust-admin/reports", "get">["reports"][number];
export type Report = Answer<"/trust-admin/reports/{key}", "get">;
