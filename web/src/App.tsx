// The shell: who is signed in (GET /api/users/me picks the UI language), the
// navigation, and the page the path names (src/shell/area.ts).
import { startTransition, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { call, Problem, session, type Me } from "./api/client";
import { adminArea } from "./areas/admin";
import { kbArea } from "./areas/kb";
import { trustArea } from "./areas/trust";
import { workArea } from "./areas/work";
import { I18n, pickLanguage, strings, UiLang, uiLanguages, useUiLanguage, type UiLanguage } from "./i18n";
import { pluginsArea } from "./plugins";
import { matchRoute, type NavSection } from "./shell/area";
import { ChooseTenantPage, SignInPage, takeReturnPath } from "./shell/SignIn";
import { ErrorBoundary, ErrorBox, Link, Loading, navigate, useCountsChanged, usePath } from "./ui";

const areas = [kbArea, workArea, trustArea, adminArea, pluginsArea];
const routes = areas.flatMap((a) => a.routes);
const nav = areas.flatMap((a) => a.nav);
// The first page's chunk loads beside GET /api/users/me (shell/area.ts).
void matchRoute(routes, window.location.pathname)?.route.page.preload?.().catch(() => undefined);
const sectionNames: Record<NavSection, { en: string; es: string }> = {
  knowledge: { en: "Knowledge", es: "Conocimiento" },
  trust: { en: "Trust", es: "Confianza" },
  admin: { en: "Administration", es: "Administración" },
};

export function App() {
  const path = usePath();
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [checked, setChecked] = useState(false);
  const [generation, setGeneration] = useState(0);
  // Signed in, but no tenant selected (several, or none).
  const [needsTenant, setNeedsTenant] = useState(false);

  // Signed in or not is the server's to say: the session is a cookie no
  // script reads, so every tab (a new one, a reload) asks.
  useEffect(() => {
    setError(null);
    setNeedsTenant(false);
    call("get", "/api/users/me").then(
      (user) =>
        // In a transition: the page appears when its chunk is there, without
        // a fallback in between.
        startTransition(() => {
          setMe(user);
          setChecked(true);
        }),
      (e) => {
        if (e instanceof Problem && e.status === 401) {
          /* signed out: the sign-in page */
        } else if (e instanceof Problem && e.code === "tenant_not_selected") setNeedsTenant(true);
        else setError(e);
        setMe(null);
        setChecked(true);
      },
    );
  }, [generation]);

  const language = pickLanguage(me?.preferredLanguage);
  const t = strings[language];
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const url = new URL(path, window.location.origin);
  // On a narrow screen the navigation is behind the menu button; it closes
  // again on every page change.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [url.pathname]);
  // On another page (or signed in or out), the focus goes to the content
  // unless the page took it, as a page load starts at the top: the next Tab
  // is the page's first control.
  const contentRef = useRef<HTMLDivElement>(null);
  const pageKey = `${me?.id ?? ""} ${url.pathname}`;
  const shownPage = useRef(pageKey);
  useEffect(() => {
    if (shownPage.current === pageKey) return;
    shownPage.current = pageKey;
    const content = contentRef.current;
    if (content && !content.contains(document.activeElement)) content.focus({ preventScroll: true });
  }, [pageKey]);
  let page: React.ReactNode;
  if (!checked) page = <Loading />;
  else if (needsTenant)
    page = (
      <ChooseTenantPage
        onChosen={() => {
          session.changed();
          setGeneration((g) => g + 1);
          navigate(takeReturnPath());
        }}
      />
    );
  else if (!me)
    page = (
      <SignInPage
        onSignedIn={() => {
          session.changed();
          setGeneration((g) => g + 1);
          navigate(takeReturnPath());
        }}
      />
    );
  else {
    const found = matchRoute(routes, url.pathname);
    if (!found) page = <ErrorBox error={new Problem(404, "Not found", `No page at ${url.pathname}.`)} />;
    else {
      const Page = found.route.page;
      page = (
        <ErrorBoundary key={url.pathname}>
          <Page params={found.params} query={url.searchParams} me={me} />
        </ErrorBoundary>
      );
    }
  }

  const owner = me?.tenantRole === "Owner";
  // The link of the page shown: the longest whose path the page's path is
  // or is under.
  const currentNav = nav
    .map((n) => n.to)
    .filter((to) => url.pathname === to || url.pathname.startsWith(to.endsWith("/") ? to : `${to}/`))
    .sort((a, b) => b.length - a.length)[0];
  const sections = (Object.keys(sectionNames) as NavSection[])
    .map((section) => ({ section, items: nav.filter((n) => n.section === section && (!n.ownerOnly || owner)) }))
    .filter((s) => s.items.length > 0);

  return (
    <UiLang.Provider value={language}>
      <I18n.Provider value={t}>
        <a href="#content" className="skip-link">
          {language === "es" ? "Saltar al contenido" : "Skip to content"}
        </a>
        <header className="top">
          <Link to="/hubs" className="brand">
            {t.appName}
          </Link>
          {me && (
            <button
              type="button"
              className="menu-button"
              aria-expanded={menuOpen}
              aria-controls="main-nav"
              onClick={() => setMenuOpen((open) => !open)}
            >
              {t.menu}
            </button>
          )}
          {me && (
            <span className="who">
              <TenantSwitcher
                me={me}
                onSwitched={() => {
                  session.changed();
                  setGeneration((g) => g + 1);
                }}
              />
              <LanguageChoice me={me} onChanged={(preferredLanguage) => setMe({ ...me, preferredLanguage })} />
              <span className="who-name">{me.displayName}</span>{" "}
              <button
                type="button"
                onClick={() => {
                  // The server ends the session and clears the cookie; then
                  // the shell asks again who is signed in.
                  void call("post", "/auth/logout")
                    .catch(() => undefined)
                    .then(() => {
                      session.changed();
                      setGeneration((g) => g + 1);
                      navigate("/");
                    });
                }}
              >
                {t.signOut}
              </button>
            </span>
          )}
        </header>
        <div className={me ? "layout" : undefined}>
          {me && (
            <nav id="main-nav" className={menuOpen ? "side open" : "side"} aria-label={language === "es" ? "Principal" : "Main"}>
              {sections.map(({ section, items }) => (
                <div key={section}>
                  <h2>{sectionNames[section][language]}</h2>
                  <ul>
                    {items.map((n) => (
                      <li key={n.to}>
                        <Link to={n.to} className={n.to === currentNav ? "current" : undefined} current={n.to === currentNav}>
                          {n.label[language]}
                          {n.count && <NavCount count={n.count} when={url.pathname} language={language} />}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </nav>
          )}
          <div id="content" className="content" tabIndex={-1} ref={contentRef}>
            <ErrorBox error={error} />
            {/* Mounted from the start, so a transition to a page whose chunk
                is still loading keeps what is shown instead of a fallback. */}
            <Suspense fallback={<Loading />}>{page}</Suspense>
          </div>
        </div>
      </I18n.Provider>
    </UiLang.Provider>
  );
}

// The interface language, saved as the person's preferred language and
// applied at once (before the server answers; put back if it refuses).
function LanguageChoice({ me, onChanged }: { me: Me; onChanged: (language: string | null) => void }) {
  const language = useUiLanguage();
  const t = strings[language];
  const [error, setError] = useState<unknown>(null);
  return (
    <>
      <select
        className="language-choice"
        aria-label={t.interfaceLanguage}
        value={language}
        onChange={(e) => {
          const before = me.preferredLanguage ?? null;
          const chosen = e.target.value;
          setError(null);
          onChanged(chosen);
          call("put", "/api/users/me/preferred-language", { body: { languageCode: chosen } }).catch((failure) => {
            onChanged(before);
            setError(failure);
          });
        }}
      >
        {uiLanguages.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>{" "}
      {error != null && <ErrorBox error={error} />}
    </>
  );
}

// A signed-in person in several tenants switches between them here.
function TenantSwitcher({ me, onSwitched }: { me: Me; onSwitched: () => void }) {
  const language = useUiLanguage();
  const [tenants, setTenants] = useState<{ id: string; name: string }[]>([]);
  const [error, setError] = useState<unknown>(null);
  // The tenant being switched to, shown until the new session answers.
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => setPending(null), [me.tenantId]);
  useEffect(() => {
    call("get", "/auth/tenants").then(setTenants, () => setTenants([]));
  }, [me.tenantId]);
  if (tenants.length < 2) return null;
  return (
    <>
      <select
        className="tenant-switcher"
        aria-label={language === "es" ? "Espacio de trabajo" : "Workspace"}
        value={pending ?? me.tenantId ?? ""}
        onChange={(e) => {
          setError(null);
          setPending(e.target.value);
          call("post", "/auth/select-tenant", { body: { tenantId: e.target.value } }).then(() => {
            navigate("/hubs");
            onSwitched();
          }, (e) => {
            setPending(null);
            setError(e);
          });
        }}
      >
        {tenants.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>{" "}
      {error != null && <ErrorBox error={error} />}
    </>
  );
}

// The number beside a navigation link, asked again on each page change;
// nothing while it is 0 or cannot be known.
function NavCount({ count, when, language }: { count: () => Promise<number>; when: string; language: UiLanguage }) {
  const [n, setN] = useState(0);
  const [asked, setAsked] = useState(0);
  useCountsChanged(useCallback(() => setAsked((a) => a + 1), []));
  useEffect(() => {
    let live = true;
    count().then(
      (value) => live && setN(value),
      () => live && setN(0),
    );
    return () => {
      live = false;
    };
  }, [count, when, asked]);
  if (n <= 0) return null;
  return (
    <span className="nav-count" data-count={n}>
      {" "}
      <span aria-hidden="true">{n}</span>
      <span className="visually-hidden">{language === "es" ? `(${n} sin leer)` : `(${n} unread)`}</span>
    </span>
  );
}
