// /admin: the administration sections, each with what it is for.
import type { PageProps } from "../../shell/area";
import { Link } from "../../ui";
import { AdminPage } from "./AdminPage";
import { useS } from "./strings";

export function LandingPage({ me }: PageProps) {
  const s = useS();
  return (
    <AdminPage title={s.adminTitle} me={me} back="">
      <p className="intro">{s.adminIntro}</p>
      {s.sections.map((group) => (
        <section key={group.title} aria-label={group.title}>
          <h2>{group.title}</h2>
          <ul className="cards admin-sections">
            {group.items.map((item) => (
              <li key={item.to} data-section={item.to}>
                <Link to={item.to}>{item.label}</Link>
                <p>{item.text}</p>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </AdminPage>
  );
}
