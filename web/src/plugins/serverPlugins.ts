// What the server says about plugins, loaded once per session and cached:
// the manifests (GET /api/plugins, with their uiContributions) and the
// tenant's installations (GET /api/tenant/plugins, with isEnabled and
// settings). refreshServerPlugins() reloads both, after an install, enable,
// disable, uninstall or settings change; every mounted slot re-renders.
import { useEffect, useSyncExternalStore } from "react";
import { call, session, type Answer } from "../api/client";
import type { SlotName } from "./Slot";

export type PluginManifest = Answer<"/api/plugins", "get">[number];
export type PluginInstallation = Answer<"/api/tenant/plugins", "get">[number];

export interface ServerPlugins {
  manifests: PluginManifest[];
  installations: PluginInstallation[];
}

export interface Contribution {
  slot: SlotName;
  componentName: string;
  pluginId: string;
  settings: Record<string, unknown>;
}

interface State {
  generation: number; // session.generation the data belongs to
  data?: ServerPlugins;
  error?: unknown;
  loading: boolean;
}

let state: State = { generation: session.generation, loading: false };
let inFlight: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: State) {
  state = next;
  for (const l of listeners) l();
}

async function load(): Promise<void> {
  const generation = session.generation;
  set({ ...state, generation, loading: true });
  try {
    const [manifests, installations] = await Promise.all([call("get", "/api/plugins"), call("get", "/api/tenant/plugins")]);
    if (session.generation === generation) set({ generation, data: { manifests, installations }, loading: false });
  } catch (error) {
    if (session.generation === generation) set({ generation, error, loading: false });
  }
}

function ensureLoaded() {
  if (inFlight) return;
  // A different sign-in (another tenant or user) is a new session.
  if (state.generation !== session.generation || (!state.data && !state.error)) {
    inFlight = load().finally(() => (inFlight = null));
  }
}

export function refreshServerPlugins(): Promise<void> {
  inFlight = load().finally(() => (inFlight = null));
  return inFlight;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useServerPlugins(): State {
  const s = useSyncExternalStore(subscribe, () => state);
  // After each render: loads on first use and after a change of sign-in.
  useEffect(ensureLoaded);
  return s;
}

// The slot's contributions from the tenant's enabled installations, in the
// manifests' (registry) order.
export function contributionsFor(data: ServerPlugins, slot: SlotName): Contribution[] {
  const enabled = new Map(data.installations.filter((i) => i.isEnabled).map((i) => [i.pluginId, i]));
  const out: Contribution[] = [];
  for (const m of data.manifests) {
    const installation = enabled.get(m.id);
    if (!installation) continue;
    const component = (m.uiContributions as Record<string, string>)[slot];
    if (component)
      out.push({ slot, componentName: component, pluginId: m.id, settings: (installation.settings ?? {}) as Record<string, unknown> });
  }
  return out;
}

export function settingsContribution(m: PluginManifest): string | undefined {
  return (m.uiContributions as Record<string, string>)["tenant.admin.settings"];
}

// For tests.
export function resetServerPluginsForTests(data?: ServerPlugins) {
  set({ generation: session.generation, data, loading: false });
}
