// The knowledge base area's API types (answers of the generated schema) and
// the few helpers its pages share.
import { Problem, type Answer } from "../../api/client";

export type HubT = Answer<"/api/hubs/{key}", "get">;
export type EntryT = Answer<"/api/entries/{id}", "get">;
export type EntryListItemT = Answer<"/api/entries/hubs/{hubKey}", "get">[number];
export type MembershipT = Answer<"/api/hubs/{hubId}/memberships", "get">[number];
export type UserT = Answer<"/api/users", "get">[number];
export type GroupT = Answer<"/api/groups", "get">[number];
export type ExpiryTemplateT = Answer<"/api/expiry-templates", "get">[number];
export type ExpiryStatusT = Answer<"/api/entries/{entryId}/expiry-status", "get">;
export type StaleBlockT = Answer<"/api/entries/{entryId}/translations/{language}/stale-blocks", "get">[number];
export type ChecklistT = Answer<"/api/review-checklists", "get">[number];
export type ReviewT = Answer<"/api/entries/{entryId}/review-history", "get">[number];
export type TrustDecisionT = Answer<"/api/trust/preview", "post">["results"][number];
export type EntryTemplateT = Answer<"/api/templates", "get">[number];
export type Role = MembershipT["role"];
export const ROLES: Role[] = ["Viewer", "Editor", "Admin"];

// The expiry badge of an entry: a status and how far away its expiry is.
export function daysUntil(iso: string, now = Date.now()): number {
  return Math.ceil((Date.parse(iso) - now) / 86_400_000);
}

// A plugin guard's denial (422 guard_denied) carries the guard's own
// message.
export function guardMessage(error: unknown): string | null {
  if (!(error instanceof Problem) || error.code !== "guard_denied") return null;
  if (typeof error.extra.message === "string") return error.extra.message;
  const i = error.detail.indexOf(": ");
  return i >= 0 ? error.detail.slice(i + 2) : error.detail;
}

// A key from a title: lowercase ASCII letters, digits and dashes.
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);
}
