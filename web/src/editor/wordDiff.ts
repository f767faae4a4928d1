// A word diff of a source block's text then and now (jsdiff diffWords), as
// the segments the reader renders with <ins> and <del>.
import { diffWords } from "diff";

export interface DiffSegment {
  kind: "same" | "added" | "removed";
  text: string;
}

export function wordDiff(before: string, after: string): DiffSegment[] {
  const segments: DiffSegment[] = [];
  for (const change of diffWords(before, after)) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    const last = segments[segments.length - 1];
    if (last && last.kind === kind) last.text += change.value;
    else segments.push({ kind, text: change.value });
  }
  return segments;
}

// Whether anything changed (a diff of equal texts is one "same" segment).
export const hasChanges = (segments: DiffSegment[]) => segments.some((s) => s.kind !== "same");
