// Calls whose bodies are not JSON (glossary CSV and TBX, the audit log's
// CSV): api/client.ts's `send`, answering the text and the name the server
// gives it.
import { send } from "../../api/client";
import { filenameFromDisposition, saveFile } from "../../api/files";

export async function sendText(
  method: "GET" | "POST",
  path: string,
  body?: { text: string; contentType: string },
): Promise<{ text: string; contentType: string; filename: string | null }> {
  const response = await send(method, path, { text: body?.text, contentType: body?.contentType, accept: "*/*" });
  return {
    text: await response.text(),
    contentType: response.headers.get("Content-Type") ?? "text/plain",
    filename: filenameFromDisposition(response.headers.get("Content-Disposition")),
  };
}

// Saves text as a file.
export function download(text: string, contentType: string, filename: string) {
  saveFile(text, filename, contentType);
}
