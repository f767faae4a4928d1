// Sign-in: the configured OpenID providers (GET /auth/providers) and, in
// development mode, the personas of each development tenant
// (GET /auth/dev-tenants, POST /auth/dev-login). The provider sends the
// browser back to /auth/callback, which the server forwards here
// (/sign-in/callback): the page completes the sign-in with POST
// /auth/callback, asks which tenant when the user has several, and returns
// to the page the user was on.
import { useEffect, useRef, useState } from "react";
import { call, Problem } from "../api/client";
import { useT } from "../i18n";
import { ErrorBox, Loading, useLoad } from "../ui";

const PERSONAS = ["admin", "editor", "viewer", "guest"] as const;

const RETURN_KEY = "credence.returnTo";

// Where to go once signed in: the page the user asked for before signing in.
export function takeReturnPath(): string {
  const to = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  return to && to.startsWith("/") && !to.startsWith("//") && !to.startsWith("/sign-in") ? to : "/hubs";
}

function rememberReturnPath() {
  const here = window.location.pathname + window.location.search;
  if (here !== "/" && !here.startsWith("/sign-in")) sessionStorage.setItem(RETURN_KEY, here);
}

type Tenant = { id: string; name: string; slug: string; role: string };

export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  if (window.location.pathname === "/sign-in/callback") return <CallbackPage onSignedIn={onSignedIn} />;
  return <ChooseSignIn onSignedIn={onSignedIn} />;
}

// Completes an OpenID sign-in: the code and state the provider returned.
function CallbackPage({ onSignedIn }: { onSignedIn: () => void }) {
  const t = useT();
  const [error, setError] = useState<unknown>(null);
  const [needsTenant, setNeedsTenant] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // the code is good for one use only
    started.current = true;
    const q = new URLSearchParams(window.location.search);
    const providerError = q.get("error");
    if (providerError) {
      setError(new Problem(400, t.signInFailed, [providerError, q.get("error_description")].filter(Boolean).join(": ")));
      return;
    }
    const iss = q.get("iss");
    // The session comes back as an HttpOnly cookie, not in the answer.
    call("post", "/auth/callback", {
      body: { code: q.get("code") ?? "", state: q.get("state") ?? "", ...(iss ? { iss } : {}), cookie: true },
    }).then(
      (answer) => {
        window.history.replaceState(null, "", "/sign-in/callback"); // the code leaves the address bar
        // Several tenants and none chosen, or none at all: ask, or say so.
        if (!answer.user.tenantId) setNeedsTenant(true);
        else onSignedIn();
      },
      setError,
    );
  }, [onSignedIn, t]);

  if (needsTenant) return <ChooseTenantPage onChosen={onSignedIn} />;
  return (
    <main className="sign-in">
      <h1>{t.signingIn}</h1>
      <ErrorBox error={error} />
      {!error && <Loading />}
      {error != null && (
        <p>
          <a href="/">{t.tryAgain}</a>
        </p>
      )}
    </main>
  );
}

// A session without a tenant (GET /api/users/me answers 403
// tenant_not_selected): the person picks one of theirs, or learns that they
// belong to none yet, and may create one when the server allows it
// (GET /auth/tenant-creation).
export function ChooseTenantPage({ onChosen }: { onChosen: () => void }) {
  const t = useT();
  const tenants = useLoad(() => call("get", "/auth/tenants"), []);
  const creation = useLoad(() => call("get", "/auth/tenant-creation").catch(() => ({ allowed: false })), []);
  const [error, setError] = useState<unknown>(null);

  async function choose(tenantId: string) {
    setError(null);
    try {
      await call("post", "/auth/select-tenant", { body: { tenantId } });
      onChosen();
    } catch (e) {
      setError(e);
    }
  }

  const none = tenants.data?.length === 0;
  return (
    <main className="sign-in">
      <h1>{none ? t.noWorkspace : t.chooseTenant}</h1>
      <ErrorBox error={error ?? tenants.error} />
      {tenants.loading && <Loading />}
      {none && <p>{creation.data?.allowed ? t.noWorkspaceCreateText : t.noWorkspaceText}</p>}
      {none && creation.data?.allowed && <CreateWorkspace onCreated={choose} />}
      {tenants.data && tenants.data.length > 0 && (
        <ul className="cards tenant-picker">
          {tenants.data.map((tenant: Tenant) => (
            <li key={tenant.id}>
              <button type="button" data-tenant-slug={tenant.slug} onClick={() => choose(tenant.id)}>
                {tenant.name}
              </button>{" "}
              <span className="badge">{tenant.role}</span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <button
          type="button"
          onClick={() => {
            void call("post", "/auth/logout")
              .catch(() => undefined)
              .then(() => window.location.assign("/"));
          }}
        >
          {t.signOut}
        </button>
      </p>
    </main>
  );
}

// Slugs are lowercase letters, digits and hyphens (the server's rule).
export function slugFor(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 63)
    .replace(/^-+|-+$/g, "");
}

// POST /api/tenant/create: the person becomes its Owner; the session is
// then scoped to it like any other choice.
function CreateWorkspace({ onCreated }: { onCreated: (tenantId: string) => Promise<void> }) {
  const t = useT();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState<string | null>(null); // null: follows the name
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const shownSlug = slug ?? slugFor(name);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const tenant = await call("post", "/api/tenant/create", { body: { name: name.trim(), slug: shownSlug } });
      await onCreated(tenant.id);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="create-workspace" onSubmit={submit}>
      <h2>{t.createWorkspace}</h2>
      <ErrorBox error={error} />
      <label>
        {t.workspaceName}
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label>
        {t.workspaceSlug}
        <input
          value={shownSlug}
          onChange={(e) => setSlug(e.target.value)}
          required
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          maxLength={63}
        />
      </label>
      <button type="submit" aria-disabled={busy}>
        {busy ? t.working : t.createWorkspace}
      </button>
    </form>
  );
}

function ChooseSignIn({ onSignedIn }: { onSignedIn: () => void }) {
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
      // A real session, in the cookie, as a person signing in gets.
      await call("post", "/auth/dev-login", { body: { tenantId, persona, cookie: true } });
      rememberReturnPath();
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
                <a href={p.loginUrl} onClick={rememberReturnPath}>
                  {p.name}
                </a>
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
