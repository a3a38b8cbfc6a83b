/** French e-mail templates, each in HTML and plain text. */
export type MailKind =
  | "confirmation"
  | "reset"
  | "sign-in-code"
  | "invitation"
  | "existing-account"
  | "contest-win"
  | "inactive-account"
  | "erase-code"
  | "prepaid-gift";

export type MailContent = { subject: string; text: string; html: string };

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }, code?: string) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join("");
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#0f766e;color:#fff;padding:12px 20px;border-radius:10px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#57534e">Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :<br><span style="word-break:break-all">${escapeHtml(action.url)}</span></p>`
    : "";
  const codeBlock = code
    ? `<p style="margin:24px 0;font-size:32px;letter-spacing:8px;font-weight:700;font-family:monospace">${escapeHtml(code)}</p>`
    : "";
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;background:#f5f5f4;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1c1917">
<div style="max-width:520px;margin:0 auto;padding:32px 24px;background:#fff">
<p style="font-size:20px;font-weight:700;color:#0f766e;margin:0 0 24px">Fidèle</p>
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(title)}</h1>
${body}${codeBlock}${button}
<p style="margin:32px 0 0;font-size:12px;color:#78716c">Vous recevez ce message car une action a été demandée avec votre adresse sur Fidèle. Si ce n'était pas vous, ignorez-le.</p>
</div></body></html>`;
}

function textOf(title: string, paragraphs: string[], action?: { label: string; url: string }, code?: string) {
  return [
    title,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...(code ? [code, ""] : []),
    ...(action ? [`${action.label} : ${action.url}`, ""] : []),
    "Si ce n'était pas vous, ignorez ce message.",
    "— Fidèle",
  ].join("\n");
}

function build(subject: string, title: string, paragraphs: string[], action?: { label: string; url: string }, code?: string): MailContent {
  return { subject, text: textOf(title, paragraphs, action, code), html: layout(title, paragraphs, action, code) };
}

export const mailTemplates = {
  confirmation: (p: { url: string }) =>
    build(
      "Confirmez votre adresse e-mail",
      "Bienvenue sur Fidèle !",
      ["Pour activer votre compte et commencer à cumuler des points chez vos commerçants, confirmez votre adresse e-mail."],
      { label: "Confirmer mon adresse", url: p.url },
    ),
  reset: (p: { url: string }) =>
    build(
      "Réinitialisez votre mot de passe",
      "Mot de passe oublié ?",
      ["Vous avez demandé à changer votre mot de passe. Ce lien est valable une heure.", "Après le changement, toutes vos sessions ouvertes seront déconnectées."],
      { label: "Choisir un nouveau mot de passe", url: p.url },
    ),
  "sign-in-code": (p: { code: string }) =>
    build(
      `Votre code de connexion : ${p.code}`,
      "Votre code de connexion",
      ["Saisissez ce code dans l'application pour vous connecter. Il est valable 5 minutes."],
      undefined,
      p.code,
    ),
  invitation: (p: { url: string; shopName: string; inviterName: string }) =>
    build(
      `Invitation à rejoindre ${p.shopName} sur Fidèle`,
      `Rejoignez l'équipe de ${p.shopName}`,
      [`${p.inviterName} vous invite à rejoindre l'équipe de ${p.shopName} sur Fidèle pour enregistrer les passages et valider les récompenses.`],
      { label: "Accepter l'invitation", url: p.url },
    ),
  "existing-account": (p: { url: string }) =>
    build(
      "Vous avez déjà un compte Fidèle",
      "Vous avez déjà un compte",
      ["Quelqu'un (vous, sans doute) a voulu créer un compte avec cette adresse, qui en a déjà un.", "Si vous avez oublié votre mot de passe, vous pouvez en choisir un nouveau."],
      { label: "Réinitialiser mon mot de passe", url: p.url },
    ),
  "contest-win": (p: { url: string; shopName: string; contestTitle: string; lotName: string; claimBy: string; code: string }) =>
    build(
      `Vous avez gagné : ${p.lotName}`,
      "Félicitations, vous avez gagné !",
      [
        `Vous avez gagné « ${p.lotName} » au jeu « ${p.contestTitle} » de ${p.shopName}.`,
        `Présentez ce code à la boutique avant le ${p.claimBy} pour retirer votre lot.`,
      ],
      { label: "Voir mon lot", url: p.url },
      p.code,
    ),
  "inactive-account": (p: { url: string; purgeOn: string }) =>
    build(
      "Votre compte Fidèle sera supprimé",
      "Vous nous manquez",
      [
        `Vous n'avez pas utilisé Fidèle depuis trois ans. Pour ne pas garder vos données plus longtemps que nécessaire, votre compte et vos données seront supprimés le ${p.purgeOn}.`,
        "Pour le garder, il suffit de vous connecter avant cette date.",
      ],
      { label: "Me connecter", url: p.url },
    ),
  "erase-code": (p: { code: string; minutes: number }) =>
    build(
      `Code de suppression de votre compte : ${p.code}`,
      "Supprimer votre compte Fidèle",
      [
        `Saisissez ce code dans l'application pour confirmer la suppression de votre compte. Il est valable ${p.minutes} minutes.`,
        "La suppression efface vos données personnelles tout de suite et ne peut pas être annulée.",
      ],
      undefined,
      p.code,
    ),
  "prepaid-gift": (p: { url: string; shopName: string; title: string; amount: string; expiresOn: string; code: string }) =>
    build(
      `${p.shopName} : une carte cadeau pour vous`,
      "On vous offre une carte cadeau",
      [
        `Quelqu'un vous offre « ${p.title} » (${p.amount}) à utiliser chez ${p.shopName}, valable jusqu'au ${p.expiresOn} inclus.`,
        "Pour la recevoir dans l'application Fidèle, ouvrez le lien et connectez-vous ou créez votre compte : elle s'ajoute à vos cartes. Vous pouvez aussi saisir ce code dans Profil › Récupérer un code.",
        "Elle s'utilise uniquement dans cette boutique, ne se rembourse pas et ne s'échange pas contre de l'argent.",
      ],
      { label: "Recevoir ma carte cadeau", url: p.url },
      p.code,
    ),
} satisfies Record<MailKind, (p: never) => MailContent>;
