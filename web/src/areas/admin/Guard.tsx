// Admin pages are for tenant owners: anyone else gets the 403 problem (in
// AdminPage) and the page itself never mounts, so nothing is loaded for them.
import type { ComponentType } from "react";
import type { PageProps } from "../../shell/area";
import { AdminPage } from "./AdminPage";
import { useS } from "./strings";

function Forbidden({ me }: PageProps) {
  const s = useS();
  return <AdminPage title={s.adminTitle} me={me} back="">{null}</AdminPage>;
}

export function ownerOnly(Page: ComponentType<PageProps>): ComponentType<PageProps> {
  return function OwnerOnly(props: PageProps) {
    return props.me.tenantRole === "Owner" ? <Page {...props} /> : <Forbidden {...props} />;
  };
}
