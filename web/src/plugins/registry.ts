// The component registry: the client component each UiContributions entry
// of a plugin manifest names (knowledge-base.md "Plugin UI slots": every one
// must exist in the client). Each is React.lazy, so plugin UI is in its own
// chunks and not in the first page's bundle; a chunk per plugin.
import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { SlotComponentProps } from "./manager";

// A module's exports; the registry picks the component by name.
type Loader = () => Promise<Record<string, unknown>>;

const contentRules: Loader = () => import("./components/contentRules");
const approval: Loader = () => import("./components/approval");
const safeDelete: Loader = () => import("./components/safeDelete");
const scriptGuards: Loader = () => import("./components/scriptGuards");
const admissionHooks: Loader = () => import("./components/admissionHooks");
const devFaults: Loader = () => import("./components/devFaults");

// Component name -> the module that exports it under that name.
const loaders: Record<string, Loader> = {
  ContentRulesStatus: contentRules,
  HubContentRulesSettings: contentRules,
  ContentRulesSettings: contentRules,
  ApprovalPublishButton: approval,
  ApprovalDialog: approval,
  ApprovalWorkflowSettings: approval,
  SafeDeleteConfirm: safeDelete,
  SafeDeleteSettings: safeDelete,
  GuardScriptsSettings: scriptGuards,
  AdmissionHooksSettings: admissionHooks,
  DevFaultsSettings: devFaults,
};

export const registeredComponentNames: readonly string[] = Object.keys(loaders);

const cache = new Map<string, LazyExoticComponent<ComponentType<SlotComponentProps>>>();

// The lazy component for a name, or undefined when the client has none.
export function resolveComponent(name: string): LazyExoticComponent<ComponentType<SlotComponentProps>> | undefined {
  const loader = loaders[name];
  if (!loader) return undefined;
  let c = cache.get(name);
  if (!c) {
    c = lazy(async () => {
      const mod = await loader();
      const component = mod[name] as ComponentType<SlotComponentProps> | undefined;
      if (typeof component !== "function") throw new Error(`The plugin component ${name} is missing from its module.`);
      return { default: component };
    });
    cache.set(name, c);
  }
  return c;
}

// For tests: load a component's module and answer whether it exports it.
export async function loadComponent(name: string): Promise<ComponentType<SlotComponentProps> | undefined> {
  const loader = loaders[name];
  return loader ? ((await loader())[name] as ComponentType<SlotComponentProps> | undefined) : undefined;
}
