// The contract between the shell and the client's areas (docs/web-client.md):
// each area (src/areas/*, src/plugins) lists its pages by path pattern and
// its links in the navigation. Pages are lazy, so each area is its own chunk
// and the first page loads only the shell.
import type { ComponentType, LazyExoticComponent } from "react";
import type { Me } from "../api/client";
import type { UiLanguage } from "../i18n";

export interface PageProps {
  // Path parameters by name (":hubKey" in the pattern), percent-decoded.
  params: Record<string, string>;
  query: URLSearchParams;
  me: Me;
}

export interface RouteDef {
  // Segments; ":name" binds a parameter. Exact match on the segment count.
  path: string;
  page: ComponentType<PageProps> | LazyExoticComponent<ComponentType<PageProps>>;
}

export type NavSection = "knowledge" | "trust" | "admin";

export interface NavItem {
  to: string;
  label: Record<UiLanguage, string>;
  section: NavSection;
  // Shown only to tenant owners (the Owner role; trust and platform
  // administration answer 403 to others anyway).
  ownerOnly?: boolean;
}

export interface Area {
  routes: RouteDef[];
  nav: NavItem[];
}

export function matchRoute(routes: RouteDef[], pathname: string): { route: RouteDef; params: Record<string, string> } | null {
  const parts = pathname.split("/").filter(Boolean);
  for (const route of routes) {
    const pattern = route.path.split("/").filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      if (pattern[i].startsWith(":")) {
        try {
          params[pattern[i].slice(1)] = decodeURIComponent(parts[i]);
        } catch {
          ok = false;
        }
      } else ok = pattern[i] === parts[i];
    }
    if (ok) return { route, params };
  }
  return null;
}
