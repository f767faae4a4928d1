// Small shared pieces: history navigation, links, loading, errors, badges.
import { Component, startTransition, useCallback, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Problem } from "./api/client";
import { useT } from "./i18n";

export function navigate(to: string) {
  window.history.pushState(null, "", to);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

export function usePath(): string {
  const [path, setPath] = useState(window.location.pathname + window.location.search);
  useEffect(() => {
    // A transition: the page shown stays until the next one's chunk is there.
    const update = () => startTransition(() => setPath(window.location.pathname + window.location.search));
    window.addEventListener("popstate", update);
    return () => window.removeEventListener("popstate", update);
  }, []);
  return path;
}

export function Link({
  to,
  children,
  className,
  current,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  current?: boolean;
}) {
  return (
    <a
      href={to}
      className={className}
      aria-current={current ? "page" : undefined}
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

// A page that throws while rendering shows the error, not a blank page.
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    return this.state.error ? <ErrorBox error={this.state.error} /> : this.props.children;
  }
}

// What an empty list means and what to do next.
export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="empty-state">{children}</div>;
}

// A modal dialog on the native <dialog> (focus kept inside, Escape closes).
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const titleId = useId();
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}

// Runs one async action at a time for a button or form: busy while it runs,
// its problem kept to show with <ErrorBox error={action.error} />.
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async <T,>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}

// Copies `text` to the clipboard; says so for a moment.
export function CopyButton({ text, label, copiedLabel }: { text: string; label: string; copiedLabel: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        navigator.clipboard?.writeText(text).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          },
          () => undefined,
        );
      }}
    >
      {copied ? copiedLabel : label}
    </button>
  );
}

// Long work under way: a determinate bar when the total is known.
export function Progress({ label, value, max }: { label: string; value?: number; max?: number }) {
  return (
    <div className="progress" role="status">
      <span>{label}</span> <progress value={value} max={max} aria-label={label} />
    </div>
  );
}

// Something the navigation counts (e.g. unread notifications) changed: the
// counts are asked again.
const COUNTS_EVENT = "credence:counts-changed";
export function countsChanged() {
  window.dispatchEvent(new Event(COUNTS_EVENT));
}
export function useCountsChanged(listener: () => void) {
  useEffect(() => {
    window.addEventListener(COUNTS_EVENT, listener);
    return () => window.removeEventListener(COUNTS_EVENT, listener);
  }, [listener]);
}

// "Are you sure?" for a destructive action; a refusal (e.g. 409 in use) is
// shown inside the dialog with its detail.
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  question: ReactNode;
  confirmLabel: string;
  busy: boolean;
  error: unknown;
  onCancel: () => void;
  onConfirm: () => void;
  // Another destructive way out, offered after a refusal.
  alternative?: { label: string; run: () => void };
  // The confirm button looks destructive unless this is false.
  danger?: boolean;
}) {
  const t = useT();
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onCancel}>
      <div>{props.question}</div>
      <ErrorBox error={props.error} />
      <div className="form-buttons">
        {props.alternative ? (
          <button type="button" className="danger" disabled={props.busy} onClick={props.alternative.run}>
            {props.busy ? t.working : props.alternative.label}
          </button>
        ) : (
          <button
            type="button"
            className={props.danger === false ? undefined : "danger"}
            disabled={props.busy}
            onClick={props.onConfirm}
          >
            {props.busy ? t.working : props.confirmLabel}
          </button>
        )}
        <button type="button" onClick={props.onCancel}>
          {t.cancel}
        </button>
      </div>
    </Dialog>
  );
}


// Like useLoad, but a reload keeps the data shown until the new data
// arrives: a form or a row that triggered the reload is not unmounted (focus
// and messages stay where they were), and the page does not flash empty.
export function useStableLoad<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: unknown; loading: boolean } {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  useEffect(() => {
    let live = true;
    setState((s) => ({ data: s.data, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error) => live && setState((s) => ({ data: s.data, error, loading: false })),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return state;
}
