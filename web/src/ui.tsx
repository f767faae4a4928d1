// Small shared pieces: history navigation, links, loading, errors, badges.
import { useEffect, useState, type ReactNode } from "react";
import { Problem } from "./api/client";
import { useT } from "./i18n";

export function navigate(to: string) {
  window.history.pushState(null, "", to);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

export function usePath(): string {
  const [path, setPath] = useState(window.location.pathname + window.location.search);
  useEffect(() => {
    const update = () => setPath(window.location.pathname + window.location.search);
    window.addEventListener("popstate", update);
    return () => window.removeEventListener("popstate", update);
  }, []);
  return path;
}

export function Link({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  return (
    <a
      href={to}
      className={className}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

// Loads once per `deps`; the error is kept to be shown, never swallowed.
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: unknown; loading: boolean } {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  useEffect(() => {
    let live = true;
    setState({ loading: true });
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return state;
}

export function ErrorBox({ error }: { error: unknown }) {
  const t = useT();
  if (!error) return null;
  const p = error instanceof Problem ? error : null;
  return (
    <div className="error" role="alert">
      <strong>{p?.title || t.error}</strong>
      {p && p.status > 0 && <span className="status"> ({p.status})</span>}
      <p>{p ? p.detail : String(error)}</p>
    </div>
  );
}

export function Loading() {
  const t = useT();
  return <p className="loading">{t.loading}</p>;
}

export function StatusBadge({ status }: { status: string }) {
  const t = useT();
  return <span className={`badge badge-${status.toLowerCase()}`}>{t.status[status] ?? status}</span>;
}
