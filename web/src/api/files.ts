// Files the server answers (exports): saved through a temporary link, under
// the name the server gives.
import { send } from "./client";

// Saves `data` as a file named `name` (Blob -> object URL -> <a download>).
export function saveFile(data: Blob | string, name: string, contentType = "application/octet-stream") {
  const blob = typeof data === "string" ? new Blob([data], { type: contentType }) : data;
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10000);
}

// Fetches a file with the bearer token and saves it. Answers the name used.
export async function downloadFile(url: string, fallbackName: string): Promise<{ name: string; size: number }> {
  const response = await send("get", url, { accept: "*/*" });
  const blob = await response.blob();
  const name = filenameFromDisposition(response.headers.get("Content-Disposition")) ?? fallbackName;
  saveFile(blob, name);
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
