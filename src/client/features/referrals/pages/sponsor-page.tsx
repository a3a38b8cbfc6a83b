import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { plural } from "../../../../domain/format.ts";
import { QrImage } from "../../../components/qr/qr-image.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { myLinkQueryOptions } from "../api/referrals.ts";

function ShareLink({ slug }: { slug: string }) {
  const query = useQuery(myLinkQueryOptions(slug));
  const [copied, setCopied] = useState(false);
  if (query.isError) {
    return (
      <div className="flex flex-col gap-4">
        <Notice tone="error">{errorText(query.error)}</Notice>
        <ButtonLink to="/cartes-de-fidelite" variant="secondary">
          Retour à mes cartes
        </ButtonLink>
      </div>
    );
  }
  if (!query.data) return <p role="status">Préparation de votre lien…</p>;
  const link = query.data;
  const share = async () => {
    const text = `Je te fais découvrir ${link.shop.name} avec Fidèle.`;
    if (navigator.share) {
      await navigator.share({ title: "Parrainage", text, url: link.url }).catch(() => undefined);
      return;
    }
    await navigator.clipboard?.writeText(link.url);
    setCopied(true);
  };
  return (
    <div className="flex flex-col gap-5">
      <div className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
        <p className="text-base">
          Invitez un proche chez <strong>{link.shop.name}</strong>.{" "}
          {link.friendGift ? <>Il recevra {link.friendGift}</> : null}
          {link.friendGift && link.sponsorGift ? " et vous " : link.sponsorGift ? "Vous recevrez " : ""}
          {link.sponsorGift ?? ""}
          {link.friendGift || link.sponsorGift ? " après son premier passage en boutique." : null}
        </p>
        <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
          Rien n'est donné à l'inscription : seulement quand votre proche vient en boutique et fait valider son passage
          au comptoir. Au plus {plural(link.monthlyCap, "parrainage récompensé", "parrainages récompensés")} par mois.
        </p>
      </div>
      <div className="mx-auto w-56 rounded-2xl bg-white p-2">
        <QrImage text={link.url} label={`QR code de votre lien de parrainage pour ${link.shop.name}`} />
      </div>
      <p className="break-all text-center text-sm font-medium" data-testid="referral-link">
        {link.url}
      </p>
      <Button onClick={share} full>
        Partager mon lien
      </Button>
      {copied ? (
        <p role="status" className="text-center text-sm font-medium">
          Lien copié.
        </p>
      ) : null}
      <p className="text-sm text-stone-700 dark:text-stone-300" data-testid="referral-counts">
        {plural(link.waiting, "invitation en attente", "invitations en attente")},{" "}
        {plural(link.rewarded, "parrainage récompensé", "parrainages récompensés")}.
      </p>
    </div>
  );
}

/** /parrainer?shop=…: my link and QR code to invite someone to a shop I am a customer of (issue 28). */
export default function SponsorPage() {
  const [params] = useSearchParams();
  const slug = params.get("shop");
  return (
    <Page title="Parrainer un proche" lead="Partagez votre lien ou faites scanner ce QR code.">
      {slug && /^[a-z0-9-]{1,80}$/.test(slug) ? (
        <ShareLink slug={slug} />
      ) : (
        <Notice tone="error">Choisissez la boutique depuis vos cartes : « Parrainer un proche ».</Notice>
      )}
    </Page>
  );
}
