import { formatDateTime, plural } from "../../../../domain/format.ts";
import type { PublicContest } from "../api/play.ts";

const Hash = ({ value }: { value: string }) => (
  <code className="block break-all rounded-lg bg-stone-100 p-2 font-mono text-xs dark:bg-stone-800">{value}</code>
);

/** The draw's proof: the commitment published at scheduling, then the seed, the list's hash and the winners. */
export function Verification({
  contestId,
  verification,
}: {
  contestId: string;
  verification: NonNullable<PublicContest["verification"]>;
}) {
  const v = verification;
  return (
    <section
      aria-labelledby="verif-title"
      className="flex flex-col gap-3 rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id="verif-title" className="text-lg font-bold">
        Un tirage que chacun peut vérifier
      </h2>
      <p className="text-sm">Empreinte SHA-256 de la graine secrète, publiée avant l'ouverture :</p>
      {v.commitment ? <Hash value={v.commitment} /> : null}
      {v.seed ? (
        <>
          <p className="text-sm">Graine révélée au tirage, le {v.drawnAt ? formatDateTime(v.drawnAt) : ""} :</p>
          <Hash value={v.seed} />
          <p className="text-sm">
            Empreinte SHA-256 de la liste figée des participations (
            {plural(v.entrantsCount ?? 0, "participation", "participations")}) :
          </p>
          {v.entrantsHash ? <Hash value={v.entrantsHash} /> : null}
          <h3 className="font-semibold">Résultat</h3>
          {v.winners.length === 0 ? (
            <p className="text-sm">Aucune participation : aucun gagnant.</p>
          ) : (
            <ol className="flex flex-col gap-1 text-sm">
              {v.winners.map((w) => {
                // The server names only the signed-in viewer's own pseudonym (issue 25 row 18).
                const isMe = w.participantId !== null && w.participantId === v.myParticipantId;
                return (
                  <li key={w.rank} className={isMe ? "font-semibold" : undefined}>
                    {w.rank}. <span className="font-mono">{w.participantId}</span>
                    {isMe ? " (vous)" : ""} — {w.lotName} ({w.statusLabel.toLowerCase()})
                  </li>
                );
              })}
            </ol>
          )}
          {v.myParticipantId && !v.winners.some((w) => w.participantId === v.myParticipantId) ? (
            <p className="text-sm">
              Votre pseudonyme dans la liste : <span className="font-mono">{v.myParticipantId}</span> (non tiré).
            </p>
          ) : null}
        </>
      ) : (
        <p className="text-sm">
          La graine, la liste des participations et son empreinte seront publiées ici au moment du tirage.
        </p>
      )}
      <details className="text-sm">
        <summary className="min-h-11 cursor-pointer py-2 font-semibold">Comment vérifier ?</summary>
        <ol className="list-decimal space-y-2 pl-5">
          <li>
            Vérifiez que SHA-256 de la graine donne l'empreinte publiée avant l'ouverture :{" "}
            <code>printf %s GRAINE | sha256sum</code>.
          </li>
          <li>
            Téléchargez les données publiées :{" "}
            <a
              className="font-semibold text-brand-800 underline dark:text-brand-200"
              href={`/api/contests/${contestId}/draw`}
            >
              graine et liste des participations (JSON)
            </a>
            . La liste contient une ligne « ticket participant » par participation, triée par ticket ; son SHA-256 est
            l'empreinte publiée.
          </li>
          <li>
            Pour compteur = 0, 1, 2… : calculez HMAC-SHA256(clé = graine, message = « empreinte de la liste:compteur »),
            lisez ses 4 premiers octets comme un entier x ; si x est au-delà du plus grand multiple du nombre de
            tickets, passez ; sinon le ticket n° (x modulo le nombre de tickets) est tiré, sauf si son participant l'a
            déjà été.
          </li>
          <li>
            Ou lancez le script fourni avec Fidèle : <code>node scripts/verify-draw.mjs tirage.json</code>. Les premiers
            tirés gagnent, les suivants remplacent dans l'ordre les gagnants qui ne retirent pas leur lot.
          </li>
        </ol>
      </details>
    </section>
  );
}
