// /admin/tenant: the tenant's page (its name, slug and id from GET
// /auth/tenants, the signed-in user's role, its plugins) hosting the
// tenant.admin.settings slot, where each enabled plugin shows its settings.
import { call } from "../api/client";
import type { PageProps } from "../shell/area";
import { EmptyState, ErrorBox, Link, Loading, useLoad } from "../ui";
import { Slot } from "./Slot";
import { useServerPlugins } from "./serverPlugins";
import { useS } from "./strings";
import "./plugins.css";

export default function TenantSettingsPage({ me }: PageProps) {
  const s = useS();
  const tenants = useLoad(() => call("get", "/auth/tenants"), []);
  const server = useServerPlugins();
  const tenant = tenants.data?.find((t) => t.id === me.tenantId);
  const enabled = server.data
    ? server.data.manifests.filter((m) => server.data!.installations.some((i) => i.pluginId === m.id && i.isEnabled))
    : [];
  return (
    <main className="tenant-settings">
      <h1>{s.tenant.title}</h1>
      {tenants.loading ? (
        <Loading />
      ) : tenants.error ? (
        <ErrorBox error={tenants.error} />
      ) : (
        <dl className="tenant-facts" data-tenant-id={me.tenantId}>
          <dt>{s.tenant.name}</dt>
          <dd data-tenant-name>{tenant?.name ?? "—"}</dd>
          <dt>{s.tenant.slug}</dt>
          <dd>{tenant?.slug ?? "—"}</dd>
          <dt>{s.tenant.id}</dt>
          <dd>
            <code>{me.tenantId}</code>
          </dd>
          <dt>{s.tenant.yourRole}</dt>
          <dd>{s.tenant.roles[me.tenantRole] ?? me.tenantRole}</dd>
          <dt>{s.tenant.enabledPlugins}</dt>
          <dd>
            {server.data ? (enabled.length ? enabled.map((m) => m.name).join(", ") : s.tenant.none) : "…"}{" "}
            <Link to="/manage/plugins">{s.tenant.managePlugins}</Link>
          </dd>
        </dl>
      )}
      <h2>{s.tenant.pluginSettings}</h2>
      <Slot
        name="tenant.admin.settings"
        context={{}}
        fallback={
          <EmptyState>
            {s.tenant.noPluginSettings} <Link to="/manage/plugins">{s.tenant.managePlugins}</Link>
          </EmptyState>
        }
      />
    </main>
  );
}
