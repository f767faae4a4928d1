// The shell: who is signed in (GET /api/users/me picks the UI language),
// the routes, and sign-out.
import { useEffect, useState } from "react";
import { call, Problem, session, type Me } from "./api/client";
import { I18n, pickLanguage, strings } from "./i18n";
import { EditorPage } from "./pages/Editor";
import { HubPage, HubsPage } from "./pages/Hubs";
import { ReaderPage } from "./pages/Reader";
import { SignInPage } from "./pages/SignIn";
import { ErrorBox, Link, Loading, navigate, usePath } from "./ui";

export function App() {
  const path = usePath();
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [checked, setChecked] = useState(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    setError(null);
    if (!session.token) {
      setMe(null);
      setChecked(true);
      return;
    }
    call("get", "/api/users/me").then(
      (user) => {
        setMe(user);
        setChecked(true);
      },
      (e) => {
        if (e instanceof Problem && e.status === 401) session.token = null;
        else setError(e);
        setMe(null);
        setChecked(true);
      },
    );
  }, [generation]);

  const t = strings[pickLanguage(me?.preferredLanguage)];
  useEffect(() => {
    document.documentElement.lang = pickLanguage(me?.preferredLanguage);
  }, [me]);

  let page: React.ReactNode;
  const url = new URL(path, window.location.origin);
  const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (!checked) page = <Loading />;
  else if (!me)
    page = (
      <SignInPage
        onSignedIn={() => {
          setGeneration((g) => g + 1);
          if (parts[0] === "sign-in" || parts.length === 0) navigate("/hubs");
        }}
      />
    );
  else if (parts.length === 0 || (parts[0] === "hubs" && parts.length === 1) || parts[0] === "sign-in")
    page = <HubsPage />;
  else if (parts[0] === "hubs" && parts.length === 2) page = <HubPage hubKey={parts[1]} />;
  else if (parts[0] === "hubs" && parts.length === 3 && parts[2] === "new") page = <EditorPage hubKey={parts[1]} />;
  else if (parts[0] === "entries" && parts.length === 2)
    page = <ReaderPage entryId={parts[1]} language={url.searchParams.get("lang")} />;
  else page = <ErrorBox error={new Problem(404, "Not found", `No page at ${url.pathname}.`)} />;

  return (
    <I18n.Provider value={t}>
      <header className="top">
        <Link to="/hubs" className="brand">
          {t.appName}
        </Link>
        {me && (
          <span className="who">
            {me.displayName}{" "}
            <button
              type="button"
              onClick={() => {
                call("post", "/auth/logout").catch(() => undefined);
                session.token = null;
                setGeneration((g) => g + 1);
                navigate("/");
              }}
            >
              {t.signOut}
            </button>
          </span>
        )}
      </header>
      <ErrorBox error={error} />
      {page}
    </I18n.Provider>
  );
}
