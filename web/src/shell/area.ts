// The contract between the shell and the client's areas (docs/web-client.md):
// each area (src/areas/*, src/plugins) lists its pages by path pattern and
// its links in the navigation. Pages are lazy, so each area is its own chunk
// and the first page loads only the shell.
import { createElement, use, type ComponentType } from "react";
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
  page: ComponentType<PageProps> & { preload?: () => Promise<unknown> };
}

// A page in its own chunk, like React.lazy, that can be loaded before it
// renders (preload): the shell starts loading the first page's chunk beside
// GET /api/users/me, and a navigation waits for the next page's chunk in a
// transition. Either way the page never suspends into a fallback, whose
// reveal React holds back for up to 300 ms.
export function lazyPage(
  load: () => Promise<{ default: ComponentType<PageProps> }>,
): ComponentType<PageProps> & { preload: () => Promise<unknown> } {
  let loaded: ComponentType<PageProps> | null = null;
  let loading: Promise<ComponentType<PageProps>> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (m) => (loaded = m.default),
      (e) => {
        loading = null; // a failed chunk (a new deployment) may be asked for again
        throw e;
      },
    ));
  function LazyPage(props: PageProps) {
    const Page = loaded ?? use(preload());
    return createElement(Page, props);
  }
  LazyPage.preload = preload;
  return LazyPage;
}

export type NavSection = "knowledge" | "trust" | "admin";

export interface NavItem {
  to: string;
  label: Record<UiLanguage, string>;
  section: NavSection;
  // Shown only to tenant owners (the Owner role; trust and platform
  // administration answer 403 to others anyway).
  ownerOnly?: boolean;
  // A count shown beside the link (e.g. unread notifications), asked again
  // on each page change.
  count?: () => Promise<number>;
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
