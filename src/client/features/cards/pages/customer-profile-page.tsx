import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useLocation, useParams } from "react-router";
import {
  capitalize,
  formatAmount,
  formatDateMedium,
  formatDateTime,
  formatNumber,
  formatSigned,
  unitWord,
} from "../../../../domain/format.ts";
import { visitsFr } from "../../../../domain/phrases.ts";
import { ErrorView } from "../../../components/errors/error-view.tsx";
import { NOT_FOUND_HEADING_FR } from "../../../components/errors/route-error.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { api, ApiError, errorFields, errorText, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "../api/keys.ts";
import { adjustmentOutcomeFr } from "../../../../domain/loyalty/adjustments.ts";
import { adjustCard } from "../api/counter.ts";

const getProfile = (id: string) => unwrap(api.profiles[":id"].$get({ param: { id } }));
type Profile = Awaited<ReturnType<typeof getProfile>>["profile"];
type ShopView = Extract<Profile, { kind: "shop" }>["shops"][number];

const box = "rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900";

/** /profile/{id}: a customer as their shop sees them, or the person's own public profile (issue 16, item 8). */
export default function CustomerProfilePage() {
  const { id = "" } = useParams();
  const { pathname } = useLocation();
  const query = useQuery({ queryKey: cardsKeys.profile(id), queryFn: () => getProfile(id), retry: false });
  if (query.isPending) return <p className="px-5 py-8 text-center text-stone-600">Chargement…</p>;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404)
      return <ErrorView status={404} title={NOT_FOUND_HEADING_FR} message={`Page not found: ${pathname}`} />;
    return (
      <div className="mx-auto max-w-md px-5 py-8">
        <Notice tone="error">{errorText(query.error, "Le profil n'a pas pu être chargé.")}</Notice>
      </div>
    );
  }
  const profile = query.data.profile;
  const name = [profile.person.firstName, profile.person.lastName].filter(Boolean).join(" ");
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-5 px-5 pb-8 pt-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight">{name || "Client sans nom"}</h1>
        {profile.kind === "shop" ? (
          <p className="text-stone-600 dark:text-stone-400">{profile.person.email}</p>
        ) : profile.person.memberSince ? (
          <p className="text-stone-600 dark:text-stone-400">
            Membre depuis le {formatDateMedium(profile.person.memberSince)}
          </p>
        ) : null}
      </header>
      {profile.kind === "self" ? (
        <section className={box} aria-labelledby="own-cards">
          <h2 id="own-cards" className="text-lg font-semibold">
            Mes cartes
          </h2>
          {profile.cards.length === 0 ? (
            <p className="mt-1 text-stone-600 dark:text-stone-400">Pas encore de carte.</p>
          ) : (
            <ul className="mt-2 flex flex-col gap-1">
              {profile.cards.map((c) => (
                <li key={c.slug} className="flex justify-between gap-3">
                  <span className="font-medium">{c.shopName}</span>
                  <span className="text-stone-700 dark:text-stone-300">
                    {formatAmount(c.mode, c.balance)} · {visitsFr(c.visits)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : (
        profile.shops.map((shop) => <ShopCustomer key={shop.shopId} personId={profile.person.id} shop={shop} />)
      )}
    </div>
  );
}

function ShopCustomer({ personId, shop }: { personId: string; shop: ShopView }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: cardsKeys.profile(personId) });
  const [delta, setDelta] = useState("");
  const [reason, setReason] = useState("");
  const [note, setNote] = useState(shop.note);
  const adjust = useMutation({
    mutationFn: (change: { delta: number; reason: string }) =>
      adjustCard(shop.shopId, { cardId: shop.card.id, ...change, idempotencyKey: crypto.randomUUID() }),
    onSuccess: () => {
      setDelta("");
      setReason("");
      return refresh();
    },
  });
  const saveNote = useMutation({
    mutationFn: () =>
      unwrap(
        api.backoffice.shops[":shopId"].customers[":userId"].note.$put({
          param: { shopId: shop.shopId, userId: personId },
          json: { note },
        }),
      ),
    onSuccess: refresh,
  });
  const adjustFields = errorFields(adjust.error);

  const onAdjust = (event: FormEvent) => {
    event.preventDefault();
    adjust.mutate({ delta: Number(delta), reason });
  };
  const onNote = (event: FormEvent) => {
    event.preventDefault();
    saveNote.mutate();
  };

  const headingId = `shop-${shop.shopId}`;
  return (
    <section className="flex flex-col gap-4" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        Chez {shop.shopName}
      </h2>
      <dl className={`${box} grid grid-cols-2 gap-3`}>
        <div>
          <dt className="text-sm text-stone-600 dark:text-stone-400">Solde</dt>
          <dd className="text-2xl font-bold tabular-nums">{formatAmount(shop.card.mode, shop.card.balance)}</dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600 dark:text-stone-400">Passages</dt>
          <dd className="text-2xl font-bold tabular-nums">{formatNumber(shop.card.visits)}</dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600 dark:text-stone-400">Cumul</dt>
          <dd className="tabular-nums">{formatAmount(shop.card.mode, shop.card.lifetime)}</dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600 dark:text-stone-400">Dernière visite</dt>
          <dd>{shop.card.lastScanAt ? formatDateMedium(shop.card.lastScanAt) : "Aucune"}</dd>
        </div>
      </dl>

      <form onSubmit={onAdjust} className={`${box} flex flex-col gap-3`} noValidate aria-label="Corriger le solde">
        <h3 className="font-semibold">Corriger le solde</h3>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Un membre de l'équipe corrige sans accord dans la limite fixée par la boutique ; au-delà, la correction attend
          l'accord de la boutique (propriétaire ou responsable). Personne ne corrige sa propre carte.
        </p>
        {adjust.isError ? (
          <Notice tone="error">{errorText(adjust.error, "La correction a échoué. Réessayez.")}</Notice>
        ) : null}
        {adjust.isSuccess ? (
          <Notice tone="success">{adjustmentOutcomeFr(adjust.data.status, adjust.variables.delta)}</Notice>
        ) : null}
        <Field
          label={`${capitalize(unitWord(shop.card.mode, 2))} à ajouter (ou retirer avec -)`}
          inputMode="numeric"
          value={delta}
          onValue={setDelta}
          error={adjustFields.delta}
        />
        <Field label="Motif" value={reason} onValue={setReason} error={adjustFields.reason} />
        <Button type="submit" isLoading={adjust.isPending}>
          Enregistrer la correction
        </Button>
      </form>

      <form onSubmit={onNote} className={`${box} flex flex-col gap-3`} noValidate aria-label="Note privée">
        {saveNote.isError ? (
          <Notice tone="error">{errorText(saveNote.error, "La note n'a pas été enregistrée.")}</Notice>
        ) : null}
        {saveNote.isSuccess ? <Notice tone="success">Note enregistrée.</Notice> : null}
        <TextareaField
          label="Note privée (visible de l'équipe seulement)"
          value={note}
          maxLength={2000}
          rows={3}
          onValue={setNote}
        />
        <Button type="submit" variant="secondary" isLoading={saveNote.isPending}>
          Enregistrer la note
        </Button>
      </form>

      <div className={box}>
        <h3 className="font-semibold">Historique des points</h3>
        {shop.entries.length === 0 ? (
          <p className="mt-1 text-stone-600 dark:text-stone-400">Aucun mouvement.</p>
        ) : (
          <ul className="mt-2 flex flex-col divide-y divide-stone-100 dark:divide-stone-800">
            {shop.entries.map((e) => (
              <li key={e.id} className="flex justify-between gap-3 py-2 text-sm">
                <span>
                  <span className="font-medium">{e.kindLabel}</span>
                  {e.reason ? <span className="block text-stone-600 dark:text-stone-400">{e.reason}</span> : null}
                  <span className="block text-stone-600 dark:text-stone-400">{formatDateTime(e.createdAt)}</span>
                </span>
                <span className="shrink-0 font-semibold tabular-nums">{formatSigned(e.delta)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className={box}>
        <h3 className="font-semibold">Récompenses</h3>
        {shop.rewards.length === 0 ? (
          <p className="mt-1 text-stone-600 dark:text-stone-400">Aucune récompense demandée.</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {shop.rewards.map((r) => (
              <li key={r.id} className="flex justify-between gap-3">
                <span>
                  {r.title}{" "}
                  <span className="text-stone-600 dark:text-stone-400">— {formatDateMedium(r.createdAt)}</span>
                </span>
                <span className="shrink-0">{r.statusLabel}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
