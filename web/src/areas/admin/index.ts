// The admin area's pages and navigation (src/shell/area.ts).
import type { Area } from "../../shell/area";

export const adminArea: Area = { routes: [], nav: [] };
