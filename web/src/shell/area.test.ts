import { describe, expect, it } from "vitest";
import { matchRoute, type RouteDef } from "./area";

const page = () => null;
const routes: RouteDef[] = [
  { path: "/hubs", page },
  { path: "/hubs/:hubKey", page },
  { path: "/hubs/:hubKey/new", page },
];

describe("matchRoute", () => {
  it("matches literal segments exactly", () => {
    expect(matchRoute(routes, "/hubs")?.route.path).toBe("/hubs");
    expect(matchRoute(routes, "/hubs/")?.route.path).toBe("/hubs");
    expect(matchRoute(routes, "/hub")).toBeNull();
  });
  it("binds and decodes parameters", () => {
    const m = matchRoute(routes, "/hubs/hr%20team/new");
    expect(m?.route.path).toBe("/hubs/:hubKey/new");
    expect(m?.params).toEqual({ hubKey: "hr team" });
  });
  it("refuses a malformed escape instead of throwing", () => {
    expect(matchRoute(routes, "/hubs/%E0%A4%A")).toBeNull();
  });
  it("needs the same number of segments", () => {
    expect(matchRoute(routes, "/hubs/a/new/x")).toBeNull();
  });
});
