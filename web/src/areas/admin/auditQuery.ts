// The audit log's query string: blank filters are left out.
export interface AuditFilters {
  actor: string;
  action: string;
  from: string;
  to: string;
}

export function auditQuery(filters: AuditFilters, cursor: string | null, limit = 50): string {
  const q = new URLSearchParams();
  for (const key of ["actor", "action", "from", "to"] as const) {
    const v = filters[key].trim();
    if (v) q.set(key, v);
  }
  q.set("limit", String(limit));
  if (cursor) q.set("cursor", cursor);
  return q.toString();
}
