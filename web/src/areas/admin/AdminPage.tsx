// The frame of every admin page: the way back to the overview, the heading,
// and the owner check. Administration is for the tenant's owners (global
// admins); anyone else gets the 403 problem the server would answer, not a
// half-working page.
import type { ReactNode } from "react";
import { Problem, type Me } from "../../api/client";
import { ErrorBox, Link } from "../../ui";
import { useS } from "./strings";
import "./admin.css";

export function AdminPage({ title, me, children, back = "/manage" }: { title: string; me: Me; children: ReactNode; back?: string }) {
  const s = useS();
  return (
    <main className="admin">
      {back && (
        <p className="back">
          <Link to={back}>← {back === "/manage" ? s.adminTitle : s.back}</Link>
        </p>
      )}
      <h1>{title}</h1>
      {me.tenantRole === "Owner" ? children : <ErrorBox error={new Problem(403, s.forbiddenTitle, s.forbiddenDetail, "forbidden")} />}
    </main>
  );
}
