// The UI's strings in English and Spanish, chosen by the user's preferred
// language (GET /api/users/me), else the browser's.
import { createContext, useContext } from "react";

const en = {
  appName: "Credence",
  signInTitle: "Sign in to Credence",
  devPersonas: "Development personas",
  tenant: "Tenant",
  providers: "Sign in with",
  signOut: "Sign out",
  signingIn: "Signing in…",
  signInFailed: "Sign-in failed",
  chooseTenant: "Choose a workspace",
  noWorkspace: "No workspace yet",
  noWorkspaceText: "You are signed in, but you are not a member of any workspace yet. Ask a workspace owner to invite you with this email address, then sign in again.",
  noWorkspaceCreateText: "You are signed in, but you are not a member of any workspace yet. Create one, and you will be its owner; or ask a workspace owner to invite you with this email address, then sign in again.",
  createWorkspace: "Create a workspace",
  workspaceName: "Workspace name",
  workspaceSlug: "Short name (in addresses)",
  tryAgain: "Try again",
  interfaceLanguage: "Interface language",
  menu: "Menu",
  hubs: "Hubs",
  noHubs: "No hubs yet.",
  entries: "Entries",
  noEntries: "No entries in this hub yet.",
  newEntry: "New entry",
  title: "Title",
  body: "Content",
  key: "Key",
  language: "Language",
  original: "Original",
  save: "Save",
  cancel: "Cancel",
  working: "Working…",
  saving: "Saving…",
  loading: "Loading…",
  error: "Something went wrong",
  stale: "Out of date: the original changed since this was translated",
  staleCount: "{n} of {total} blocks out of date",
  upToDate: "Up to date",
  back: "Back",
  contentRemoved: "[Content removed]",
  heading1: "Heading 1",
  heading2: "Heading 2",
  bulletList: "Bullet list",
  orderedList: "Numbered list",
  codeBlock: "Code",
  link: "Link",
  linkPrompt: "Link address",
  status: {
    Draft: "Draft",
    Published: "Published",
    ExpiringSoon: "Expiring soon",
    Warning: "Warning",
    Expired: "Expired",
    UpToDate: "Up to date",
    Stale: "Stale",
  } as Record<string, string>,
};

type Strings = typeof en;

const es: Strings = {
  appName: "Credence",
  signInTitle: "Inicia sesión en Credence",
  devPersonas: "Personas de desarrollo",
  tenant: "Organización",
  providers: "Iniciar sesión con",
  signOut: "Cerrar sesión",
  signingIn: "Iniciando sesión…",
  signInFailed: "No se pudo iniciar sesión",
  chooseTenant: "Elige un espacio de trabajo",
  noWorkspace: "Todavía sin espacio de trabajo",
  noWorkspaceText: "Has iniciado sesión, pero todavía no eres miembro de ningún espacio de trabajo. Pide a quien lo administra que te invite con esta dirección de correo y vuelve a iniciar sesión.",
  noWorkspaceCreateText: "Has iniciado sesión, pero todavía no eres miembro de ningún espacio de trabajo. Crea uno y serás quien lo administra, o pide a quien administra uno que te invite con esta dirección de correo y vuelve a iniciar sesión.",
  createWorkspace: "Crear un espacio de trabajo",
  workspaceName: "Nombre del espacio de trabajo",
  workspaceSlug: "Nombre corto (en las direcciones)",
  tryAgain: "Intentar de nuevo",
  interfaceLanguage: "Idioma de la interfaz",
  menu: "Menú",
  hubs: "Espacios",
  noHubs: "Todavía no hay espacios.",
  entries: "Entradas",
  noEntries: "Este espacio aún no tiene entradas.",
  newEntry: "Nueva entrada",
  title: "Título",
  body: "Contenido",
  key: "Clave",
  language: "Idioma",
  original: "Original",
  save: "Guardar",
  cancel: "Cancelar",
  working: "Trabajando…",
  saving: "Guardando…",
  loading: "Cargando…",
  error: "Algo salió mal",
  stale: "Desactualizado: el original cambió después de traducirse",
  staleCount: "{n} de {total} bloques desactualizados",
  upToDate: "Al día",
  back: "Volver",
  contentRemoved: "[Contenido eliminado]",
  heading1: "Título 1",
  heading2: "Título 2",
  bulletList: "Lista",
  orderedList: "Lista numerada",
  codeBlock: "Código",
  link: "Enlace",
  linkPrompt: "Dirección del enlace",
  status: {
    Draft: "Borrador",
    Published: "Publicada",
    ExpiringSoon: "Caduca pronto",
    Warning: "Aviso",
    Expired: "Caducada",
    UpToDate: "Al día",
    Stale: "Desactualizada",
  },
};

export type UiLanguage = "en" | "es";
export const strings: Record<UiLanguage, Strings> = { en, es };
// Every language the client is translated into, by its own name (the
// header's language choice lists them all).
export const uiLanguages: { code: UiLanguage; name: string }[] = [
  { code: "en", name: "English" },
  { code: "es", name: "Español" },
];

export function pickLanguage(preferred: string | null | undefined): UiLanguage {
  const tag = (preferred ?? navigator.language ?? "en").toLowerCase();
  return tag.startsWith("es") ? "es" : "en";
}

export const I18n = createContext<Strings>(en);
export const useT = () => useContext(I18n);

// The UI language in force; areas keep their own strings beside their pages
// (areas/*/strings.ts) and read them with the hook defineStrings returns.
export const UiLang = createContext<UiLanguage>("en");
export const useUiLanguage = () => useContext(UiLang);
export function defineStrings<T>(table: Record<UiLanguage, T>): () => T {
  return () => table[useContext(UiLang)];
}
export const format = (s: string, values: Record<string, string | number>) =>
  s.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ""));
