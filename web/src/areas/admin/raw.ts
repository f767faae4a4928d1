// Calls whose bodies are not JSON (glossary CSV and TBX): src/api/client.ts's
// `call` speaks JSON only. Same token, same problems.
import { Problem, session } from "../../api/client";

export async function sendText(
  method: "GET" | "POST",
  path: string,
  body?: { text: string; contentType: string },
): Promise<{ text: string; contentType: string; filename: string | null }> {
  const headers: Record<string, string> = {};
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body) headers["Content-Type"] = body.contentType;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body?.text });
  } catch (e) {
    throw new Problem(0, "Network error", e instanceof Error ? e.message : String(e));
  }
  const text = await response.text();
  if (!response.ok) {
    let p: { title?: string; detail?: string; code?: string; errors?: { field: string; message: string }[] } = {};
    try {
      p = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    throw new Problem(response.status, p.title ?? response.statusText, p.detail ?? text.slice(0, 300), p.code, p.errors);
  }
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? null;
  return { text, contentType: response.headers.get("Content-Type") ?? "text/plain", filename };
}

// Saves text as a file through a temporary link.
export function download(text: string, contentType: string, filename: string) {
  const url = URL.createObjectURL(new Blob([text], { type: contentType }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
