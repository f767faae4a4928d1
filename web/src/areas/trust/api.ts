// The trust area's API types and file downloads with the bearer token (its
// calls are api/client.ts's `call`).
import { problemFromResponse, Problem, queryString, session, type Answer } from "../../api/client";

export { errorFor, fieldErrors, type FieldError } from "../../api/client";

// A path with its query string (empty values left out).
export function withQuery(path: string, query?: Record<string, string | undefined>): string {
  return path + queryString(query);
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
  return problemFromResponse(response.status, response.statusText, await response.text());
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
