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

type Query<P extends keyof paths, M extends Method> = Op<P, M> extends { parameters: { query?: infer Q } }
  ? [Q] extends [never | undefined]
    ? never
    : { [K in keyof NonNullable<Q>]?: string | number | boolean | null }
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

// One member's problem in a 400 validation_failed (`errors`).
export interface FieldError {
  field: string;
  message: string;
}

// An RFC 9457 problem from the server, or a network failure in its shape.
// `errors`: a validation problem's field errors; `extra`: the whole problem
// object (a guard denial's reasonCode, message and metadata, ...).
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly code?: string,
    readonly errors: FieldError[] = [],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail || title);
  }
}

// The problem an error answer carries (or one made from its status when it
// is not a problem document).
export function problemFromResponse(status: number, statusText: string, text: string): Problem {
  let p: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) p = parsed as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const errors = Array.isArray(p.errors)
    ? (p.errors as unknown[]).filter(
        (e): e is FieldError => !!e && typeof (e as FieldError).field === "string" && typeof (e as FieldError).message === "string",
      )
    : [];
  // A guard denial explains itself in `message`; field errors are listed too.
  const detail = [
    str(p.detail) ?? text.slice(0, 300),
    str(p.message),
    errors.length ? errors.map((e) => `${e.field}: ${e.message}`).join("; ") : undefined,
  ]
    .filter(Boolean)
    .join(" ");
  return new Problem(status, str(p.title) ?? statusText, detail, str(p.code), errors, p);
}

export function fieldErrors(error: unknown): FieldError[] {
  return error instanceof Problem ? error.errors : [];
}

// The message for one form field (or one of its members).
export function errorFor(error: unknown, field: string): string | undefined {
  return fieldErrors(error).find((e) => e.field === field || e.field.startsWith(field + "."))?.message;
}

// The session itself is an HttpOnly cookie the server sets at sign-in and
// clears at sign-out (docs/sign-in.md, "Browser sessions"): no script here
// can read it, and every tab of the browser shares it. What the client
// keeps is only a count of sign-ins, sign-outs and tenant switches, so that
// what it caches for one signed-in person is not shown to the next.
let generation = 0;
export const session = {
  get generation(): number {
    return generation;
  },
  changed() {
    generation += 1;
  },
};

// Sent with every request: a request the session cookie signs in that
// changes something is refused without it (CSRF: no other site's page can
// add a header to a request it makes to this origin).
export const CSRF_HEADER = "X-Credence-CSRF";

// Query values that are null, undefined or empty are left out.
export function queryString(query: Record<string, string | number | boolean | null | undefined> | undefined): string {
  if (!query) return "";
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

function fill(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

// The one fetch of the client: the session cookie (sent by the browser) and
// the CSRF header, a JSON or text body, and a non-2xx answer thrown as its Problem. `call` is the typed form; files and
// plugin routes use this directly.
export async function send(
  method: string,
  url: string,
  options: { json?: unknown; text?: string; contentType?: string; accept?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: options.accept ?? "application/json", [CSRF_HEADER]: "1" };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.text !== undefined) {
    headers["Content-Type"] = options.contentType ?? "text/plain";
    body = options.text;
  }
  let response: Response;
  try {
    response = await fetch(url, { method: method.toUpperCase(), headers, body, credentials: "same-origin" });
  } catch (e) {
    throw new Problem(0, "Network error", e instanceof Error ? e.message : String(e));
  }
  if (!response.ok) throw problemFromResponse(response.status, response.statusText, await response.text());
  return response;
}

// A JSON answer's value; undefined for an empty or non-JSON body.
export async function jsonOf<T>(response: Response): Promise<T> {
  const text = await response.text();
  try {
    return (text ? JSON.parse(text) : undefined) as T;
  } catch {
    return undefined as T;
  }
}

export async function call<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  options: { params?: Record<string, string>; query?: Query<P, M>; body?: Body<P, M> } = {},
): Promise<Answer<P, M>> {
  const url = fill(path as string, options.params ?? {}) + queryString(options.query);
  return jsonOf<Answer<P, M>>(await send(method, url, { json: options.body }));
}
