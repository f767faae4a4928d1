// Calls to plugin routes by URL (a plugin's own routes, a DELETE with its
// query): the same headers and problems (field errors, a guard denial's
// members) as api/client.ts's call.
import { Problem, problemFromResponse, session } from "../api/client";

export { fieldErrors as fieldErrorsOf, type FieldError } from "../api/client";

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
  if (!response.ok) throw problemFromResponse(response.status, response.statusText, text);
  try {
    return (text ? JSON.parse(text) : undefined) as T;
  } catch {
    return undefined as T;
  }
}

// PUT /api/tenant/plugins/{id}/settings: 400 validation_failed names each member.
export function putPluginSettings(pluginId: string, settings: Record<string, unknown>) {
  return rawCall("PUT", `/api/tenant/plugins/${encodeURIComponent(pluginId)}/settings`, settings);
}


