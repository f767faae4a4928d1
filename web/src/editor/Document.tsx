// Renders a stored editor document (decisions.md section 5) read-only; each
// top-level block carries its id, and blocks listed in `stale` are marked,
// with what changed in their source when `staleDetails` says (a word diff).
import type { ReactNode } from "react";
import { defineStrings, useT } from "../i18n";
import { hasChanges, wordDiff } from "./wordDiff";

export interface PmNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PmNode[];
  text?: string;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

function safeHref(href: unknown): string | undefined {
  if (typeof href !== "string") return undefined;
  return /^(https?:|mailto:|\/|#)/i.test(href) ? href : undefined;
}

function renderText(node: PmNode, key: number): ReactNode {
  let out: ReactNode = node.text ?? "";
  for (const mark of node.marks ?? []) {
    if (mark.type === "bold") out = <strong>{out}</strong>;
    else if (mark.type === "italic") out = <em>{out}</em>;
    else if (mark.type === "strike") out = <s>{out}</s>;
    else if (mark.type === "underline") out = <u>{out}</u>;
    else if (mark.type === "code") out = <code>{out}</code>;
    else if (mark.type === "link")
      out = (
        <a href={safeHref(mark.attrs?.href)} rel="noopener noreferrer">
          {out}
        </a>
      );
  }
  return <span key={key}>{out}</span>;
}

function renderChildren(nodes: PmNode[] | undefined): ReactNode[] {
  return (nodes ?? []).map((n, i) => renderNode(n, i));
}

function cellSpan(value: unknown): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 1 ? n : undefined;
}

function renderNode(node: PmNode, key: number): ReactNode {
  switch (node.type) {
    case "text":
      return renderText(node, key);
    case "paragraph":
      return <p key={key}>{renderChildren(node.content)}</p>;
    case "heading": {
      const level = Math.min(Math.max(Number(node.attrs?.level ?? 1), 1), 6);
      const Tag = `h${level}` as "h1";
      return <Tag key={key}>{renderChildren(node.content)}</Tag>;
    }
    case "bulletList":
      return <ul key={key}>{renderChildren(node.content)}</ul>;
    case "orderedList":
      return <ol key={key}>{renderChildren(node.content)}</ol>;
    case "listItem":
      return <li key={key}>{renderChildren(node.content)}</li>;
    case "codeBlock":
      return (
        <pre key={key}>
          <code>{(node.content ?? []).map((c) => c.text ?? "").join("")}</code>
        </pre>
      );
    case "blockquote":
      return <blockquote key={key}>{renderChildren(node.content)}</blockquote>;
    case "hardBreak":
      return <br key={key} />;
    case "horizontalRule":
      return <hr key={key} />;
    case "table":
      return (
        <div key={key} className="table-wrap">
          <table>
            <tbody>{renderChildren(node.content)}</tbody>
          </table>
        </div>
      );
    case "tableRow":
      return <tr key={key}>{renderChildren(node.content)}</tr>;
    case "tableHeader":
      return (
        <th key={key} scope="col" colSpan={cellSpan(node.attrs?.colspan)} rowSpan={cellSpan(node.attrs?.rowspan)}>
          {renderChildren(node.content)}
        </th>
      );
    case "tableCell":
      return (
        <td key={key} colSpan={cellSpan(node.attrs?.colspan)} rowSpan={cellSpan(node.attrs?.rowspan)}>
          {renderChildren(node.content)}
        </td>
      );
    default:
      return <div key={key}>{renderChildren(node.content)}</div>;
  }
}

export function parseDocument(content: string | null | undefined): PmNode[] {
  if (!content) return [];
  try {
    const doc = JSON.parse(content) as PmNode;
    return doc.content ?? [];
  } catch {
    return [{ type: "paragraph", content: [{ type: "text", text: content }] }];
  }
}

// What the reader knows about a stale block: the source's text now and,
// when this browser saw it, the text the translation was made from.
export interface StaleDetail {
  before: string | null;
  after: string;
}

export function SourceChange({ detail }: { detail: StaleDetail }) {
  const t = useT();
  const s = useDocStrings();
  if (detail.before === null || !hasChanges(wordDiff(detail.before, detail.after)))
    return (
      <div className="source-change" data-source-change="now">
        <p className="source-change-label">{s.sourceNow}</p>
        <p className="source-text">{detail.after}</p>
        {detail.before === null && <p className="hint">{s.sourceThenUnknown}</p>}
      </div>
    );
  return (
    <div className="source-change" data-source-change="diff" aria-label={t.stale}>
      <p className="source-change-label">{s.sourceChanged}</p>
      <p className="source-text diff">
        {wordDiff(detail.before, detail.after).map((seg, i) =>
          seg.kind === "added" ? (
            <ins key={i}>{seg.text}</ins>
          ) : seg.kind === "removed" ? (
            <del key={i}>{seg.text}</del>
          ) : (
            <span key={i}>{seg.text}</span>
          ),
        )}
      </p>
    </div>
  );
}

export function DocumentView({
  content,
  stale,
  staleDetails,
}: {
  content: string | null | undefined;
  stale?: Set<string>;
  staleDetails?: Map<string, StaleDetail>;
}) {
  const t = useT();
  return (
    <article className="document">
      {parseDocument(content).map((node, i) => {
        const id = typeof node.attrs?.blockId === "string" ? node.attrs.blockId : undefined;
        const isStale = !!id && (!!stale?.has(id) || !!staleDetails?.has(id));
        const detail = id ? staleDetails?.get(id) : undefined;
        const removed = node.attrs?.isDeleted === true || node.attrs?.removed === true;
        return (
          <section
            key={id ?? i}
            className={isStale ? "block stale" : "block"}
            data-block-id={id}
            data-stale={isStale ? "true" : undefined}
            title={isStale ? t.stale : undefined}
          >
            {isStale && <span className="stale-marker">⚠ {t.stale}</span>}
            {removed ? <p className="removed">{t.contentRemoved}</p> : renderNode(node, 0)}
            {detail && <SourceChange detail={detail} />}
          </section>
        );
      })}
    </article>
  );
}

const useDocStrings = defineStrings({
  en: {
    sourceChanged: "What changed in the original since this was translated:",
    sourceNow: "The original now reads:",
    sourceThenUnknown: "The earlier wording was not kept (it changed before this server kept it), so no comparison can be shown.",
  },
  es: {
    sourceChanged: "Qué cambió en el original desde que se tradujo:",
    sourceNow: "El original dice ahora:",
    sourceThenUnknown: "No se guardó la redacción anterior (cambió antes de que este servidor la guardara), así que no se puede mostrar la comparación.",
  },
});
