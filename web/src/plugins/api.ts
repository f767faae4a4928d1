// The few calls `call` (api/client.ts) cannot make as the plugins need them:
// a query string (DELETE /api/entries/{id}?confirm=true&reason=...) and the
// problem's extra members (a validation_failed problem's `errors`, a guard
// denial's reasonCode, message and metadata), which the pages show.
import { Problem, session } from "../api/client";

export interface FieldError {
  field: string;
  message: string;
}

export class PluginProblem extends Problem {
  constructor(
    status: number,
    title: string,
    detail: string,
    code: string | undefined,
    readonly errors: FieldError[],
    readonly reasonCode?: string,
    readonly denialMessage?: string,
  ) {
    super(status, title, detail, code);
  }
}

export async function rawCall<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Problem(0, "Network error", e instanceof Error ? e.message : String(e));
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const p = (json ?? {}) as { title?: string; detail?: string; code?: string; errors?: FieldError[]; reasonCode?: string; message?: string };
    const detail = [p.detail ?? text.slice(0, 300), p.message].filter(Boolean).join(" ");
    throw new PluginProblem(response.status, p.title ?? response.statusText, detail, p.code, Array.isArray(p.errors) ? p.errors : [], p.reasonCode, p.message);
  }
  return json as T;
}

// PUT /api/tenant/plugins/{id}/settings: 400 validation_failed names each member.
export function putPluginSettings(pluginId: string, settings: Record<string, unknown>) {
  return rawCall("PUT", `/api/tenant/plugins/${encodeURIComponent(pluginId)}/settings`, settings);
}

export function fieldErrorsOf(error: unknown): FieldError[] {
  return error instanceof PluginProblem ? error.errors : [];
}
