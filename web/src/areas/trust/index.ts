// The trust area's pages and navigation (src/shell/area.ts): apps and
// their keys, tenant API keys, policies, the policy what-if, connectors,
// scanner findings, the decision ledger and compliance reports. Every page
// calls tenant-admin routes, so the links are shown to owners only.
import { lazyPage } from "../../shell/area";
import type { Area } from "../../shell/area";

const AppsPage = lazyPage(() => import("./Apps").then((m) => ({ default: m.AppsPage })));
const AppPage = lazyPage(() => import("./Apps").then((m) => ({ default: m.AppPage })));
const ApiKeysPage = lazyPage(() => import("./ApiKeys").then((m) => ({ default: m.ApiKeysPage })));
const PoliciesPage = lazyPage(() => import("./Policies").then((m) => ({ default: m.PoliciesPage })));
const ConnectorsPage = lazyPage(() => import("./Connectors").then((m) => ({ default: m.ConnectorsPage })));
const ConnectorPage = lazyPage(() => import("./Connectors").then((m) => ({ default: m.ConnectorPage })));
const FindingsPage = lazyPage(() => import("./Findings").then((m) => ({ default: m.FindingsPage })));
const LedgerPage = lazyPage(() => import("./Ledger").then((m) => ({ default: m.LedgerPage })));
const DecisionPage = lazyPage(() => import("./Ledger").then((m) => ({ default: m.DecisionPage })));
const WhatIfPage = lazyPage(() => import("./WhatIf").then((m) => ({ default: m.WhatIfPage })));
const ReportsPage = lazyPage(() => import("./Reports").then((m) => ({ default: m.ReportsPage })));

export const trustArea: Area = {
  routes: [
    { path: "/trust", page: AppsPage },
    { path: "/trust/apps", page: AppsPage },
    { path: "/trust/apps/:appId", page: AppPage },
    { path: "/trust/api-keys", page: ApiKeysPage },
    { path: "/trust/policies", page: PoliciesPage },
    { path: "/trust/connectors", page: ConnectorsPage },
    { path: "/trust/connectors/:connectorId", page: ConnectorPage },
    { path: "/trust/findings", page: FindingsPage },
    { path: "/trust/ledger", page: LedgerPage },
    { path: "/trust/ledger/:decisionId", page: DecisionPage },
    { path: "/trust/reports", page: ReportsPage },
    { path: "/trust/what-if", page: WhatIfPage },
  ],
  nav: [
    { to: "/trust/apps", label: { en: "Apps and keys", es: "Apps y claves" }, section: "trust", ownerOnly: true },
    { to: "/trust/api-keys", label: { en: "API keys", es: "Claves de API" }, section: "trust", ownerOnly: true },
    { to: "/trust/policies", label: { en: "Policies", es: "Políticas" }, section: "trust", ownerOnly: true },
    { to: "/trust/what-if", label: { en: "Policy what-if", es: "Simulación de políticas" }, section: "trust", ownerOnly: true },
    { to: "/trust/connectors", label: { en: "Connectors", es: "Conectores" }, section: "trust", ownerOnly: true },
    { to: "/trust/findings", label: { en: "Scanner findings", es: "Hallazgos del escáner" }, section: "trust", ownerOnly: true },
    { to: "/trust/ledger", label: { en: "Decision ledger", es: "Registro de decisiones" }, section: "trust", ownerOnly: true },
    { to: "/trust/reports", label: { en: "Compliance reports", es: "Informes de cumplimiento" }, section: "trust", ownerOnly: true },
  ],
};
