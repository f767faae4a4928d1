// The tenant's languages: add from the known list, enable or disable, make
// one the default, change their settings, remove.
import { call, type Answer } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { ErrorBox, Loading, useAction, useLoad } from "../../ui";
import { AdminPage } from "./AdminPage";
import { ResourcePage, type ResourceConfig } from "./ResourceList";
import { useS } from "./strings";

export type Language = Answer<"/api/admin/languages", "get">[number];

function LanguageActions({ language, refresh }: { language: Language; refresh: () => void }) {
  const s = useS();
  const action = useAction();
  return (
    <>
      {!language.isDefault && (
        <button
          type="button"
          disabled={action.busy}
          aria-label={`${language.isEnabled ? s.disable : s.enable}: ${language.displayName}`}
          onClick={() =>
            action.run(async () => {
              await call("put", "/api/admin/languages/{languageCode}", {
                params: { languageCode: language.code },
                body: { isEnabled: !language.isEnabled },
              });
              refresh();
            })
          }
        >
          {language.isEnabled ? s.disable : s.enable}
        </button>
      )}
      {!language.isDefault && (
        <button
          type="button"
          disabled={action.busy}
          aria-label={`${s.makeDefault}: ${language.displayName}`}
          onClick={() =>
            action.run(async () => {
              await call("put", "/api/admin/languages/{languageCode}/set-default", { params: { languageCode: language.code } });
              refresh();
            })
          }
        >
          {s.makeDefault}
        </button>
      )}
      <ErrorBox error={action.error} />
    </>
  );
}

export function LanguagesPage({ me }: PageProps) {
  const s = useS();
  const known = useLoad(() => call("get", "/api/tenant/known-languages"), []);
  if (!known.data)
    return (
      <AdminPage title={s.languages} me={me}>
        <ErrorBox error={known.error} />
        {known.loading && <Loading />}
      </AdminPage>
    );
  const knownLanguages = known.data;
  const config: ResourceConfig<Language> = {
    kind: "language",
    title: s.languages,
    intro: <p>{s.languagesIntro}</p>,
    noun: s.languageNoun,
    empty: s.languagesEmpty,
    load: () => call("get", "/api/admin/languages"),
    rowKey: (l) => l.code,
    rowName: (l) => l.code,
    columns: [
      {
        label: s.f.language,
        render: (l) => (
          <>
            {l.displayName} <code>{l.code}</code>
            {l.isDefault && <span className="badge">{s.default}</span>}
          </>
        ),
      },
      { label: s.f.isEnabled, render: (l) => (l.isEnabled ? s.yes : s.no) },
      { label: s.f.trigger, render: (l) => s.triggers[l.trigger] },
      { label: s.f.provider, render: (l) => l.provider ?? "" },
      { label: s.f.sortOrder, render: (l) => l.sortOrder },
    ],
    fields: [
      {
        name: "code",
        label: s.f.language,
        kind: "select",
        createOnly: true,
        options: knownLanguages.map((k) => ({ value: k.code, label: `${k.displayName} · ${k.nativeName} (${k.code})` })),
      },
      { name: "displayName", label: s.f.displayName, kind: "text", maxLength: 100, help: s.languageNameHelp },
      { name: "trigger", label: s.f.trigger, kind: "select", options: (["OnDemand", "AlwaysTranslate", "Never"] as const).map((t) => ({ value: t, label: s.triggers[t] })) },
      { name: "provider", label: s.f.provider, kind: "text", nullable: true, maxLength: 100, help: s.providerHelp },
      { name: "sortOrder", label: s.f.sortOrder, kind: "number", min: -1000000, max: 1000000 },
      { name: "isEnabled", label: s.f.isEnabled, kind: "checkbox", initial: true },
    ],
    // A blank display name is the known list's name for the code.
    encode: (body, values) => {
      if (body.displayName === undefined) {
        const code = (values.code as string) || "";
        const k = knownLanguages.find((x) => x.code === code);
        if (k) body.displayName = k.displayName;
      }
      return body;
    },
    create: (body) => call("post", "/api/admin/languages", { body: body as never }),
    update: (l, body) => call("put", "/api/admin/languages/{languageCode}", { params: { languageCode: l.code }, body: body as never }),
    // The default can be neither disabled nor removed: another becomes default first.
    canRemove: (l) => !l.isDefault,
    remove: (l) => call("delete", "/api/admin/languages/{languageCode}", { params: { languageCode: l.code } }),
    rowActions: (l, refresh) => <LanguageActions language={l} refresh={refresh} />,
  };
  return <ResourcePage config={config} me={me} />;
}
