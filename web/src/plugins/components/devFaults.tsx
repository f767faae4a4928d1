// dev-faults' component (development servers only; docs/plugins.md):
// DevFaultsSettings (tenant.admin.settings) picks what its guard does.
import type { SlotComponentProps } from "../manager";
import { useS } from "../strings";
import { SettingsForm } from "./common";

export function DevFaultsSettings({ pluginId, settings, context }: SlotComponentProps) {
  const s = useS();
  return (
    <section className="plugin-panel" aria-labelledby="dev-faults-settings">
      <h3 id="dev-faults-settings">{s.df.title}</h3>
      <p>{s.df.intro}</p>
      <SettingsForm
        pluginId={pluginId}
        settings={settings}
        onSaved={context.refresh}
        fields={[
          {
            name: "mode",
            kind: "select",
            label: s.df.mode,
            options: (["allow", "deny", "throw", "slow"] as const).map((m) => ({ value: m, label: s.df.modes[m] })),
          },
        ]}
      />
    </section>
  );
}
