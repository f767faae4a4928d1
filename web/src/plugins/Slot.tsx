// A plugin UI slot (knowledge-base.md "Plugin UI slots"): renders, in place,
// the components that the tenant's enabled plugins contribute to `name`.
// The pages own where a slot sits; src/plugins owns what fills it: the
// server's contributions (the manifests' uiContributions of the tenant's
// enabled installations, serverPlugins.ts) resolved through the component
// registry (registry.ts), then the enabled frontend widget plugins of the
// plugin manager for this slot. Each contribution renders in its own error
// boundary, so one failing plugin never takes the page (or the others) down.
import { Suspense, useEffect, useState, type ReactNode } from "react";
import { ErrorBoundary, ErrorBox, Loading } from "../ui";
import { pluginManager } from "./instance";
import { BUILT_IN_EVENTS } from "./manager";
import { resolveComponent } from "./registry";
import { contributionsFor, useServerPlugins } from "./serverPlugins";
import { useS } from "./strings";
import "./plugins.css";

export type SlotName =
  | "entry.toolbar.publish"
  | "entry.sidebar.status"
  | "entry.approval.dialog"
  | "entry.delete.confirm"
  | "hub.admin.settings"
  | "tenant.admin.settings";

// What a slot's host tells the components it renders. Every field is
// optional; a host passes what it has.
export interface SlotContext {
  entryId?: string;
  hubKey?: string;
  // The host reloads its data (after an approval, a setting change...).
  refresh?: () => void;
  // entry.delete.confirm: a contribution may hold the delete back until its
  // own condition is met (false), and release it (true).
  setConfirmable?: (pluginId: string, ok: boolean) => void;
  // entry.approval.dialog: the host closes the dialog.
  close?: () => void;
  // entry.delete.confirm: a contribution hands the host what the delete must
  // carry (safe-delete: the reason, for DELETE ...?confirm=true&reason=).
  // A host without it leaves the confirmed delete to the contribution.
  setDeleteReason?: (reason: string) => void;
}

// Re-renders when frontend plugins are registered, enabled, disabled or
// unregistered.
function useManagerVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const offs = BUILT_IN_EVENTS.map((e) => pluginManager.on(e, bump));
    return () => offs.forEach((off) => off());
  }, []);
  return version;
}

export function Slot({ name, context = {}, fallback }: { name: SlotName; context?: SlotContext; fallback?: ReactNode }) {
  const s = useS();
  const server = useServerPlugins();
  useManagerVersion();
  const items: ReactNode[] = [];
  for (const c of server.data ? contributionsFor(server.data, name) : []) {
    const Component = resolveComponent(c.componentName);
    items.push(
      <div key={`${c.pluginId}/${c.componentName}`} className="plugin-contribution" data-plugin={c.pluginId} data-component={c.componentName}>
        {Component ? (
          <ErrorBoundary>
            <Suspense fallback={<Loading />}>
              <Component pluginId={c.pluginId} context={context} settings={c.settings} />
            </Suspense>
          </ErrorBoundary>
        ) : (
          <p className="plugin-missing" role="note">
            {s.componentMissing.replace("{name}", c.componentName).replace("{plugin}", c.pluginId)}
          </p>
        )}
      </div>,
    );
  }
  for (const w of pluginManager.getWidgetPlugins()) {
    if (!w.isEnabled || w.slot !== name) continue;
    const Component = w.component;
    items.push(
      <div key={`widget/${w.id}`} className="plugin-contribution" data-plugin={w.id} data-component={w.id}>
        <ErrorBoundary>
          <Suspense fallback={<Loading />}>
            <Component pluginId={w.id} context={context} settings={{}} />
          </Suspense>
        </ErrorBoundary>
      </div>,
    );
  }
  return (
    <div className="plugin-slot" data-slot={name}>
      {server.error ? <ErrorBox error={server.error} /> : null}
      {items.length > 0 ? items : fallback}
    </div>
  );
}
