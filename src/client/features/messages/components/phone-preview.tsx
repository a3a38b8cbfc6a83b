import { linkTarget } from "../../../../domain/schemas/links.ts";

/** The message as a phone shows it: the push on the lock screen, then the message opened in the app. */
export function PhonePreview({
  sender,
  title,
  body,
  imageUrl,
  withPush,
}: {
  sender: string;
  title: string;
  body: string;
  imageUrl: string;
  withPush: boolean;
}) {
  const shownTitle = title.trim() || "Titre du message";
  const shownBody = body.trim() || "Le texte de votre message apparaîtra ici.";
  const image = linkTarget(imageUrl.trim())?.href ?? null;
  return (
    <figure
      aria-label="Aperçu sur un téléphone"
      className="mx-auto w-64 rounded-[2.2rem] border-8 border-stone-900 bg-stone-800 p-3 shadow-xl"
    >
      <div className="flex min-h-96 flex-col gap-3 rounded-3xl bg-gradient-to-b from-brand-700 to-stone-900 p-3 text-white">
        <p className="text-center text-3xl font-light" aria-hidden="true">
          9:41
        </p>
        {withPush ? (
          <div className="rounded-2xl bg-white/90 p-3 text-stone-900 shadow">
            <div className="flex items-center gap-2 text-xs text-stone-700">
              <img src="/pwa-192x192.png" alt="" className="size-4 rounded" />
              <span className="font-semibold">Fidèle</span>
              <span className="ml-auto">maintenant</span>
            </div>
            <p className="mt-1 text-sm font-semibold">{shownTitle}</p>
            <p className="line-clamp-3 text-sm">{shownBody}</p>
          </div>
        ) : null}
        <div className="mt-auto rounded-2xl bg-white p-3 text-stone-900">
          <p className="text-xs font-semibold uppercase tracking-wide text-brand-800">{sender}</p>
          <p className="mt-1 font-semibold">{shownTitle}</p>
          {image ? <img src={image} alt="" className="mt-2 max-h-28 w-full rounded-lg object-cover" /> : null}
          <p className="mt-1 whitespace-pre-line text-sm">{shownBody}</p>
        </div>
      </div>
      <figcaption className="sr-only">Aperçu : {shownTitle}</figcaption>
    </figure>
  );
}
