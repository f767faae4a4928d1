// A glossary's CSV and TBX import (merge or replace) and export.
import { useId, useState } from "react";
import { format } from "../../i18n";
import { Dialog, ErrorBox, useAction } from "../../ui";
import { download, sendText } from "./raw";
import { useS } from "./strings";

const contentTypes = { csv: "text/csv", tbx: "application/x-tbx+xml" } as const;

export function GlossaryTransfer({ glossary, refresh }: { glossary: { id: string; name: string }; refresh: () => void }) {
  const s = useS();
  const [open, setOpen] = useState(false);
  const [fileFormat, setFileFormat] = useState<"csv" | "tbx">("csv");
  const [mode, setMode] = useState<"merge" | "replace">("merge");
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const importing = useAction();
  const exporting = useAction();
  const id = useId();
  const base = `/api/admin/glossaries/${encodeURIComponent(glossary.id)}`;

  const exportAs = (f: "csv" | "tbx") =>
    exporting.run(async () => {
      const r = await sendText("GET", `${base}/export/${f}`);
      download(r.text, r.contentType, r.filename ?? `${glossary.name}.${f}`);
    });

  return (
    <>
      <button
        type="button"
        aria-label={`${s.importTerms}: ${glossary.name}`}
        onClick={() => {
          importing.clear();
          setResult(null);
          setFile(null);
          setOpen(true);
        }}
      >
        {s.importTerms}
      </button>
      <button type="button" disabled={exporting.busy} aria-label={`${s.exportCsv}: ${glossary.name}`} onClick={() => exportAs("csv")}>
        {s.exportCsv}
      </button>
      <button type="button" disabled={exporting.busy} aria-label={`${s.exportTbx}: ${glossary.name}`} onClick={() => exportAs("tbx")}>
        {s.exportTbx}
      </button>
      <ErrorBox error={exporting.error} />
      <Dialog open={open} title={format(s.importInto, { name: glossary.name })} onClose={() => setOpen(false)}>
        <form
          className="resource-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!file) return;
            importing.run(async () => {
              const r = await sendText("POST", `${base}/import/${fileFormat}?mode=${mode}`, {
                text: await file.text(),
                contentType: contentTypes[fileFormat],
              });
              const g = JSON.parse(r.text) as { termCount: number };
              setResult(format(s.imported, { n: g.termCount }));
              refresh();
            });
          }}
        >
          <div className="field">
            <label htmlFor={`${id}-format`}>{s.fileFormat}</label>
            <select id={`${id}-format`} value={fileFormat} onChange={(e) => setFileFormat(e.target.value as "csv" | "tbx")}>
              <option value="csv">CSV</option>
              <option value="tbx">TBX</option>
            </select>
            <span className="help">{s.csvHelp}</span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-mode`}>{s.importMode}</label>
            <select id={`${id}-mode`} value={mode} onChange={(e) => setMode(e.target.value as "merge" | "replace")}>
              <option value="merge">{s.modeMerge}</option>
              <option value="replace">{s.modeReplace}</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-file`}>{s.file}</label>
            <input
              id={`${id}-file`}
              type="file"
              accept={fileFormat === "csv" ? ".csv,text/csv" : ".tbx,.xml"}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </div>
          <ErrorBox error={importing.error} />
          {result && <p role="status">{result}</p>}
          <div className="form-buttons">
            <button type="submit" disabled={!file || importing.busy}>
              {importing.busy ? s.working : s.importTerms}
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              {s.close}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
