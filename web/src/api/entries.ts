// Reading an entry: GET /api/entries/{id} answers the ?language= translation
// (default en, the spec's) when there is one, so the original takes a second
// request when the first answer was a translation.
import { call, type Answer } from "./client";

type Entry = Answer<"/api/entries/{id}", "get">;

// The entry in one language (the default's translation, or the original).
export function loadEntry(id: string, language?: string): Promise<Entry> {
  return call("get", "/api/entries/{id}", { params: { id }, query: { language } });
}

// The entry in its original language.
export async function loadOriginal(id: string): Promise<Entry> {
  const first = await loadEntry(id);
  return first.isTranslation ? loadEntry(id, first.originalLanguage) : first;
}
