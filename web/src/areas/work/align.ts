// Block alignment of a translation with its original (decisions.md section
// 5): a translation's top-level nodes carry the blockIds of the original
// blocks they translate, so the side-by-side view pairs them by id, in the
// original's order. Pure functions, unit-tested in align.test.ts.
import type { PmNode } from "../../editor/Document";

export interface AlignedRow {
  blockId: string;
  // The original block; null when the original no longer has it (removed
  // since it was translated: the server keeps the translated block aligned,
  // but refuses it in a save).
  original: PmNode | null;
  // The translated block; null when it is not translated yet.
  translated: PmNode | null;
  // The original changed since this block was translated.
  stale: boolean;
}

export function blockIdOf(node: PmNode): string | undefined {
  const id = node.attrs?.blockId;
  return typeof id === "string" && id ? id : undefined;
}

// One row per original block, in the original's order, with its translated
// block (or null). A translated block whose original is gone gets its own
// row, placed after the row of the translated block before it (so it shows
// where the reader last saw it), or first when it opens the translation.
export function alignBlocks(original: PmNode[], translated: PmNode[], staleIds: ReadonlySet<string>): AlignedRow[] {
  const byId = new Map<string, PmNode>();
  for (const node of translated) {
    const id = blockIdOf(node);
    if (id && !byId.has(id)) byId.set(id, node);
  }
  const rows: AlignedRow[] = [];
  const originalIds = new Set<string>();
  for (const node of original) {
    const id = blockIdOf(node);
    if (!id || originalIds.has(id)) continue;
    originalIds.add(id);
    const t = byId.get(id) ?? null;
    rows.push({ blockId: id, original: node, translated: t, stale: !!t && staleIds.has(id) });
  }
  // Orphans: translated blocks without a live original block.
  let previous: string | null = null;
  const placed = new Set<string>();
  for (const node of translated) {
    const id = blockIdOf(node);
    if (!id || placed.has(id)) continue;
    placed.add(id);
    if (originalIds.has(id)) {
      previous = id;
      continue;
    }
    const row: AlignedRow = { blockId: id, original: null, translated: node, stale: false };
    const at = previous === null ? -1 : rows.findIndex((r) => r.blockId === previous);
    rows.splice(at + 1, 0, row);
    previous = id;
  }
  return rows;
}

export interface Counts {
  total: number;
  translated: number;
  stale: number;
  missing: number;
  removed: number;
}

export function countRows(rows: AlignedRow[]): Counts {
  const live = rows.filter((r) => r.original);
  return {
    total: live.length,
    translated: live.filter((r) => r.translated).length,
    stale: live.filter((r) => r.stale).length,
    missing: live.filter((r) => !r.translated).length,
    removed: rows.length - live.length,
  };
}

// Sets attrs.blockId on a node (a copy), keeping its other attributes.
export function withBlockId(node: PmNode, blockId: string): PmNode {
  return { ...node, attrs: { ...(node.attrs ?? {}), blockId } };
}

// The translation document to save (PUT /api/entries/{id}?language=): every
// translated block, edited or not (a block left out would be removed), in
// the original's order, each with its original's blockId. Blocks whose
// original is gone are left out (the server refuses them) and listed in
// `dropped`.
export function buildTranslationDocument(
  rows: AlignedRow[],
  edits: ReadonlyMap<string, PmNode>,
): { doc: { type: "doc"; content: PmNode[] }; dropped: string[] } {
  const content: PmNode[] = [];
  const dropped: string[] = [];
  for (const row of rows) {
    if (!row.original) {
      dropped.push(row.blockId);
      continue;
    }
    const node = edits.get(row.blockId) ?? row.translated;
    if (node) content.push(withBlockId(node, row.blockId));
  }
  return { doc: { type: "doc", content }, dropped };
}

// The plain text of a node, its leaves joined (for labels and comparisons).
export function nodeText(node: PmNode | null | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.text ?? "";
  return (node.content ?? []).map(nodeText).join(node.type === "doc" ? "\n" : "");
}

// Whether an edit changed a block (ignoring the blockId attribute).
export function sameBlock(a: PmNode | null | undefined, b: PmNode | null | undefined): boolean {
  const strip = (n: PmNode | null | undefined) => {
    if (!n) return null;
    const attrs = { ...(n.attrs ?? {}) };
    delete attrs.blockId;
    return JSON.stringify(canonical({ ...n, attrs: Object.keys(attrs).length ? attrs : undefined }));
  };
  return strip(a) === strip(b);
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}
