// A typed fetch over the generated OpenAPI types (src/api/schema.d.ts, from
// `npm run api-types`): paths, bodies and answers are checked by tsc.
import type { paths } from "./schema";

type Method = "get" | "post" | "put" | "patch" | "delete";
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Success<R> = R extends { 200: { content: { "application/json": infer T } } }
  ? T
  : R extends { 201: { content: { "application/json": infer T } } }
    ? T
    : unknown;
export type Answer<P extends keyof paths, M extends Method> = Op<P, M> extends { responses: infer R } ? Success<R> : never;
type Body<P extends keyof paths, M extends Method> = Op<P, M> extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;

export type Hub = Answer<"/api/hubs", "get">[number];
export type EntryListItem = Answer<"/api/entries/hubs/{hubKey}", "get">[number];
export type Entry = Answer<"/api/entries/{id}", "get">;
export type TranslationItem = Answer<"/api/entries/{entryId}/translations", "get">[number];
export type Translation = Answer<"/api/entries/{entryId}/translations/{language}", "get">;
export type StaleBlock = Answer<"/api/entries/{entryId}/translations/{language}/stale-blocks", "get">[number];
export type Me = Answer<"/api/users/me", "get">;
export type DevTenant = Answer<"/auth/dev-tenants", "get">[number];
export type NewEntry = Body<"/api/entries", "post">;

// An RFC 9457 problem from the server, or a network failure in its shape.
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly code?: string,
    // Validation problems: one per field (`items[0].text`), when the server names them.
    readonly errors?: { field: string; message: string }[],
  ) {
    super(detail || title);
  }
}

const TOKEN_KEY = "credence.token";
export const session = {
  get token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set token(value: string | null) {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  },
};

function fill(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

export async function call<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  options: { params?: Record<string, string>; body?: Body<P, M> } = {},
): Promise<Answer<P, M>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(fill(path as string, options.params ?? {}), {
      method: method.toUpperCase(),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch (e) {
    throw new Problem(0, "Network error", e instanceof Error ? e.message : String(e));
  }
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  if (!response.ok) {
    const p = (json ?? {}) as { title?: string; detail?: string; code?: string; errors?: { field: string; message: string }[] };
    throw new Problem(response.status, p.title ?? response.statusText, p.detail ?? text.slice(0, 300), p.code, p.errors);
  }
  return json as Answer<P, M>;
}
