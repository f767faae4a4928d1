// Calls to plugin routes by URL (a plugin's own routes): api/client.ts's
// `send`, with the same token and problems (field errors, a guard denial's
// members).
import { jsonOf, send } from "../api/client";

export { fieldErrors as fieldErrorsOf, type FieldError } from "../api/client";

export async function rawCall<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  return jsonOf<T>(await send(method, url, { json: body }));
}

// PUT /api/tenant/plugins/{id}/settings: 400 validation_failed names each member.
export function putPluginSettings(pluginId: string, settings: Record<string, unknown>) {
  return rawCall("PUT", `/api/tenant/plugins/${encodeURIComponent(pluginId)}/settings`, settings);
}


