// Sign-in: the configured OpenID providers (GET /auth/providers) and, in
// development mode, the personas of each development tenant
// (GET /auth/dev-tenants, POST /auth/dev-login).
import { useState } from "react";
import { call, Problem, session } from "../api/client";
import { useT } from "../i18n";
import { ErrorBox, Loading, useLoad } from "../ui";

const PERSONAS = ["admin", "editor", "viewer", "guest"] as const;

export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const t = useT();
  const providers = useLoad(() => call("get", "/auth/providers"), []);
  // Outside development mode the route does not exist: no personas then.
  const tenants = useLoad(
    () =>
      call("get", "/auth/dev-tenants").catch((e) => {
        if (e instanceof Problem && e.status === 404) return [];
        throw e;
      }),
    [],
  );
  const [error, setError] = useState<unknown>(null);

  async function devLogin(tenantId: string, persona: (typeof PERSONAS)[number]) {
    setError(null);
    try {
      const answer = await call("post", "/auth/dev-login", { body: { tenantId, persona } });
      session.token = answer.token;
      onSignedIn();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <main className="sign-in">
      <h1>{t.signInTitle}</h1>
      <ErrorBox error={error ?? providers.error ?? tenants.error} />
      {(providers.loading || tenants.loading) && <Loading />}
      {providers.data && providers.data.length > 0 && (
        <section>
          <h2>{t.providers}</h2>
          <ul className="providers">
            {providers.data.map((p) => (
              <li key={p.name}>
                <a href={p.loginUrl}>{p.name}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {tenants.data && tenants.data.length > 0 && (
        <section>
          <h2>{t.devPersonas}</h2>
          {tenants.data.map((tenant) => (
            <div key={tenant.id} className="tenant" data-tenant-id={tenant.id}>
              <h3>
                {t.tenant}: {tenant.name}
              </h3>
              {PERSONAS.map((persona) => (
                <button key={persona} type="button" data-persona={persona} onClick={() => devLogin(tenant.id, persona)}>
                  {persona}
                </button>
              ))}
            </div>
          ))}
        </section>
      )}
    </main>
  );
}
