import { Link } from "react-router";
import { formatDateTime } from "../../../../domain/format.ts";
import { useRules } from "../api/play.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";

/** The published règlement of a contest (latest version, or one asked for), with its other versions. */
export function RulesView({ contestId, version }: { contestId: string; version: number | null }) {
  const rules = useRules(contestId, version);
  if (rules.isPending) return <p aria-busy="true">Chargement…</p>;
  if (rules.error) return <LoadError error={rules.error} />;
  const { document, versions } = rules.data;
  return (
    <article className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold tracking-tight">{document.title}</h1>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Version {rules.data.version}, publiée le {formatDateTime(rules.data.publishedAt)}.
      </p>
      {document.sections.map((s) => (
        <section key={s.id} aria-labelledby={`art-${s.id}`}>
          <h2 id={`art-${s.id}`} className="text-lg font-semibold">
            {s.heading}
          </h2>
          {s.paragraphs.map((p) => (
            <p key={p} className="mt-1 text-stone-800 dark:text-stone-200">
              {p}
            </p>
          ))}
        </section>
      ))}
      {versions.length > 1 ? (
        <nav aria-label="Versions du règlement" className="text-sm">
          <p className="font-semibold">Versions :</p>
          <ul>
            {versions.map((v) => (
              <li key={v.version}>
                <Link
                  className="text-brand-800 underline dark:text-brand-200"
                  to={`/jeu-concours?reglement=${contestId}&version=${v.version}`}
                >
                  Version {v.version} du {formatDateTime(v.publishedAt)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <Link
        className="text-sm font-semibold text-brand-800 underline dark:text-brand-200"
        to={`/jeu-concours?concours=${contestId}`}
      >
        Retour au jeu
      </Link>
    </article>
  );
}
