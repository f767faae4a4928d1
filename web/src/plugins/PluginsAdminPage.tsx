// /admin/plugins: every plugin the server offers (GET /api/plugins) with the
// tenant's installation of it (GET /api/tenant/plugins): install, enable,
// disable, settings (the plugin's own settings component when its manifest
// contributes one to tenant.admin.settings, and a JSON editor checked by the
// server), uninstall. Changes refresh the plugin cache the slots read.
import { Suspense, useId, useState } from "react";
import { call, type Answer } from "../api/client";
import type { PageProps } from "../shell/area";
import { Dialog, EmptyState, ErrorBoundary, ErrorBox, Link, Loading, useAction, useLoad } from "../ui";
import { putPluginSettings } from "./api";
import { FieldErrors } from "./components/common";
import { resolveComponent } from "./registry";
import { refreshServerPlugins, settingsContribution, useServerPlugins, type PluginInstallation, type PluginManifest } from "./serverPlugins";
import { useS } from "./strings";
import "./plugins.css";

type Health = Answer<"/plugins", "get">[number]["health"];

// Validates the JSON editor's text: an object, or a message saying why not.
export function parseSettingsJson(text: string): { value?: Record<string, unknown>; error?: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return { error: "not-object" };
  return { value: v as Record<string, unknown> };
}

function JsonSettingsEditor({ manifest, installation }: { manifest: PluginManifest; installation: PluginInstallation }) {
  const s = useS();
  const id = useId();
  const [text, setText] = useState(() => JSON.stringify(installation.settings ?? {}, null, 2));
  const [localError, setLocalError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  return (
    <form
      className="json-settings"
      data-json-settings={manifest.id}
      onSubmit={async (e) => {
        e.preventDefault();
        setSaved(false);
        const parsed = parseSettingsJson(text);
        if (parsed.error) {
          setLocalError(parsed.error === "not-object" ? s.admin.jsonNotObject : `${s.admin.jsonInvalid}: ${parsed.error}`);
          return;
        }
        setLocalError(null);
        const ok = await action.run(async () => {
          await putPluginSettings(manifest.id, parsed.value!);
          return true;
        });
        if (ok) {
          setSaved(true);
          await refreshServerPlugins();
        }
      }}
    >
      <label htmlFor={id}>{s.admin.jsonLabel}</label>
      <textarea
        id={id}
        className="code"
        rows={8}
        spellCheck={false}
        value={text}
        aria-invalid={!!localError || !!action.error}
        onChange={(e) => setText(e.target.value)}
      />
      <details>
        <summary>{s.admin.schema}</summary>
        <pre className="code">{JSON.stringify(manifest.settingsSchema, null, 2)}</pre>
      </details>
      {localError && (
        <p className="error" role="alert">
          {localError}
        </p>
      )}
      <ErrorBox error={action.error} />
      <FieldErrors error={action.error} />
      <button type="submit" disabled={action.busy}>
        {s.saveSettings}
      </button>
      {saved && (
        <span role="status" className="saved">
          {s.saved}
        </span>
      )}
    </form>
  );
}

function SettingsPanel({ manifest, installation }: { manifest: PluginManifest; installation: PluginInstallation }) {
  const s = useS();
  const name = settingsContribution(manifest);
  const Component = name ? resolveComponent(name) : undefined;
  const [json, setJson] = useState(!Component);
  return (
    <div className="settings-panel" data-settings-panel={manifest.id}>
      {!installation.isEnabled && manifest.hasEndpoints && <p className="hint">{s.admin.disabledRoutes}</p>}
      {Component && manifest.hasSettings && (
        <div className="settings-switch">
          <button type="button" aria-pressed={!json} onClick={() => setJson(false)}>
            {s.admin.form}
          </button>
          <button type="button" aria-pressed={json} onClick={() => setJson(true)}>
            {s.admin.json}
          </button>
        </div>
      )}
      {json || !Component ? (
        manifest.hasSettings ? (
          <JsonSettingsEditor manifest={manifest} installation={installation} />
        ) : (
          <p>{s.admin.noSettings}</p>
        )
      ) : (
        <div data-plugin={manifest.id} data-component={name}>
          <ErrorBoundary>
            <Suspense fallback={<Loading />}>
              <Component
                pluginId={manifest.id}
                settings={(installation.settings ?? {}) as Record<string, unknown>}
                context={{}}
              />
            </Suspense>
          </ErrorBoundary>
        </div>
      )}
    </div>
  );
}

function PluginRow({
  manifest,
  installation,
  health,
  allManifests,
  canManage,
}: {
  manifest: PluginManifest;
  installation?: PluginInstallation;
  health?: Health;
  allManifests: PluginManifest[];
  canManage: boolean;
}) {
  const s = useS();
  const act = useAction();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const panelId = useId();
  const status = !installation ? "notInstalled" : installation.isEnabled ? "enabled" : "disabled";
  const nameOf = (id: string) => allManifests.find((m) => m.id === id)?.name ?? id;
  const run = (work: () => Promise<unknown>) =>
    act.run(async () => {
      await work();
      await refreshServerPlugins();
    });
  const params = { params: { id: manifest.id } };
  const slots = Object.keys(manifest.uiContributions as Record<string, string>);
  return (
    <li className="plugin-row" data-plugin-id={manifest.id} data-status={status}>
      <div className="plugin-head">
        <h2>{manifest.name}</h2>
        <span className={`badge plugin-status-${status}`}>{s.admin.status[status]}</span>
        {health?.status === "degraded" && (
          <span className="badge badge-warning" title={health.lastError ?? undefined}>
            {s.admin.degraded.replace("{n}", String(health.guardFailures))}
          </span>
        )}
      </div>
      <p>{manifest.description}</p>
      <dl className="plugin-facts">
        <dt>{s.admin.version}</dt>
        <dd>{manifest.version}</dd>
        <dt>{s.admin.category}</dt>
        <dd>{manifest.category}</dd>
        <dt>{s.admin.dependencies}</dt>
        <dd>{manifest.dependencies.length ? manifest.dependencies.map(nameOf).join(", ") : s.admin.noDependencies}</dd>
        <dt>{s.admin.slots}</dt>
        <dd data-slots={slots.join(" ")}>{slots.length ? slots.map((x) => s.admin.slotNames[x] ?? x).join(", ") : "—"}</dd>
      </dl>
      {canManage && (
        <div className="row-actions">
          {!installation && (
            <button type="button" disabled={act.busy} onClick={() => run(() => call("post", "/api/tenant/plugins/{id}/install", params))}>
              {s.admin.install}
            </button>
          )}
          {installation && (
            <button
              type="button"
              disabled={act.busy}
              onClick={() =>
                run(() =>
                  installation.isEnabled
                    ? call("post", "/api/tenant/plugins/{id}/disable", params)
                    : call("post", "/api/tenant/plugins/{id}/enable", params),
                )
              }
            >
              {installation.isEnabled ? s.disable : s.enable}
            </button>
          )}
          {installation && (manifest.hasSettings || settingsContribution(manifest)) && (
            <button type="button" aria-expanded={settingsOpen} aria-controls={panelId} onClick={() => setSettingsOpen(!settingsOpen)}>
              {s.admin.settings}
            </button>
          )}
          {installation && (
            <button type="button" onClick={() => setConfirming(true)}>
              {s.admin.uninstall}
            </button>
          )}
        </div>
      )}
      <ErrorBox error={act.error} />
      {settingsOpen && installation && (
        <div id={panelId}>
          <SettingsPanel manifest={manifest} installation={installation} />
        </div>
      )}
      <Dialog open={confirming} title={s.admin.uninstallTitle.replace("{name}", manifest.name)} onClose={() => setConfirming(false)}>
        <p>{s.admin.uninstallExplain}</p>
        <ErrorBox error={act.error} />
        <button
          type="button"
          disabled={act.busy}
          onClick={async () => {
            await run(() => call("delete", "/api/tenant/plugins/{id}", params));
            setConfirming(false);
          }}
        >
          {s.admin.uninstall}
        </button>
        <button type="button" onClick={() => setConfirming(false)}>
          {s.cancel}
        </button>
      </Dialog>
    </li>
  );
}

export default function PluginsAdminPage({ me }: PageProps) {
  const s = useS();
  const server = useServerPlugins();
  const health = useLoad(() => call("get", "/plugins").catch(() => []), [server.data]);
  const canManage = me.tenantRole === "Owner";
  return (
    <main className="plugins-admin">
      <h1>{s.admin.title}</h1>
      <p>
        {s.admin.intro} <Link to="/manage/tenant">{s.admin.tenantLink}</Link>
      </p>
      {!canManage && <p className="hint">{s.admin.ownersOnly}</p>}
      {server.error ? (
        <ErrorBox error={server.error} />
      ) : !server.data ? (
        <Loading />
      ) : server.data.manifests.length === 0 ? (
        <EmptyState>{s.admin.empty}</EmptyState>
      ) : (
        <ul className="plugin-list">
          {server.data.manifests.map((m) => (
            <PluginRow
              key={m.id}
              manifest={m}
              installation={server.data!.installations.find((i) => i.pluginId === m.id)}
              health={health.data?.find((p) => p.id === m.id)?.health}
              allManifests={server.data!.manifests}
              canManage={canManage}
            />
          ))}
        </ul>
      )}
    </main>
  );
}
