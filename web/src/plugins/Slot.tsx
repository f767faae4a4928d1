// A plugin UI slot (knowledge-base.md "Plugin UI slots"): renders, in place,
// the components that the tenant's enabled plugins contribute to `name`.
// The pages own where a slot sits; src/plugins owns what fills it.
import type { ReactNode } from "react";

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
}

export function Slot(_props: { name: SlotName; context?: SlotContext; fallback?: ReactNode }) {
  return null; // filled by the plugin manager (src/plugins)
}
