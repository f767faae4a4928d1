// Dates and times in the UI's language (not the browser's).
import { useUiLanguage } from "../../i18n";

export function useWhen(): (iso: string | null | undefined) => string {
  const language = useUiLanguage();
  return (iso) => (iso ? new Date(iso).toLocaleString(language, { dateStyle: "medium", timeStyle: "short" }) : "");
}
