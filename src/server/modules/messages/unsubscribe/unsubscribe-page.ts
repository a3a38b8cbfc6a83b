import type { EmailChoices } from "./unsubscribe.service.ts";
import { escapeHtml } from "../channels/email-render.ts";

/**
 * The page an e-mail's "Se désabonner" link opens (GET of the List-Unsubscribe
 * address): rendered by the server, so it works signed out and without the app's code.
 * The button unsubscribes from the sending shop at once (the same POST a mail client
 * makes); a second one withdraws every e-mail. Nothing here grants consent or names another shop: a forwarded
 * e-mail's link can only withdraw (issue 22, row 13); choosing to receive is /notif's, signed in.
 */
const STYLE = `
:root{color-scheme:light dark}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f5f4;color:#1c1917;line-height:1.5}
main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.brand{font-weight:700;color:#0f766e;font-size:1.2rem;margin:0 0 1rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.1rem;margin:0 0 .5rem}
section{background:#fff;border-radius:1rem;padding:1rem;margin:1rem 0}
.notice{background:#ccfbf1;color:#134e4a;border-radius:.75rem;padding:.75rem 1rem;font-weight:600}
button{font:inherit;font-weight:600;border:0;border-radius:.75rem;padding:.8rem 1.2rem;min-height:2.75rem;cursor:pointer;background:#0f766e;color:#fff;width:100%}
button.secondary{background:#e7e5e4;color:#1c1917}
label{display:flex;gap:.75rem;align-items:flex-start;padding:.5rem 0}
input[type=checkbox]{width:1.4rem;height:1.4rem;flex:none;accent-color:#0f766e;margin-top:.1rem}
.muted{color:#57534e;font-size:.9rem}
a{color:#115e59}
@media (prefers-color-scheme:dark){body{background:#1c1917;color:#f5f5f4}section{background:#292524}.muted{color:#d6d3d1}.notice{background:#134e4a;color:#ccfbf1}button.secondary{background:#44403c;color:#f5f5f4}a{color:#5eead4}}
`;

function page(title: string, body: string) {
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Fidèle</title><style>${STYLE}</style></head>
<body><main><p class="brand">Fidèle</p>${body}</main></body></html>`;
}

export function invalidLinkPage() {
  return page(
    "Lien invalide",
    `<h1>Ce lien de désabonnement n'est pas valide</h1>
<p>Il a peut-être été copié en partie. Ouvrez le lien depuis l'e-mail reçu, ou réglez vos e-mails dans l'application, page « Réglages des notifications ».</p>
<p><a href="/notif">Mes réglages de notifications</a></p>`,
  );
}

export function unsubscribePage(action: string, choices: EmailChoices, state: { done?: boolean; saved?: boolean }) {
  const from = choices.from;
  const fromName = from ? escapeHtml(from.name) : null;
  const stillFrom = from ? from.granted : choices.global;
  const notice = state.done
    ? `<p class="notice" role="status">${fromName ? `C'est fait : vous ne recevrez plus d'e-mails de ${fromName}.` : "C'est fait : vous ne recevrez plus d'e-mails de Fidèle."}</p>`
    : state.saved
      ? `<p class="notice" role="status">C'est fait : vous ne recevrez plus d'e-mails des boutiques ni de Fidèle.</p>`
      : "";
  const oneClick = stillFrom
    ? `<section aria-labelledby="quick"><h2 id="quick">${fromName ? `Ne plus recevoir les e-mails de ${fromName}` : "Ne plus recevoir d'e-mails de Fidèle"}</h2>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Me désabonner</button></form></section>`
    : `<section><p>${fromName ? `Vous ne recevez plus les e-mails de ${fromName}.` : "Vous ne recevez plus d'e-mails de Fidèle."}</p></section>`;
  // A shop's e-mail: the second button withdraws every sender's (the platform's own e-mail already does, above).
  const everything =
    from && choices.global
      ? `<section aria-labelledby="all"><h2 id="all">Ne plus recevoir aucun e-mail</h2>
<p class="muted">Ni de cette boutique, ni des autres, ni de Fidèle.</p>
<form method="post" action="${escapeHtml(action)}/preferences"><input type="hidden" name="withdraw" value="all">
<button type="submit" class="secondary">Me désabonner de tous les e-mails</button></form></section>`
      : "";
  return page(
    "Mes e-mails",
    `<h1>Mes e-mails</h1>
<p class="muted">Adresse : ${escapeHtml(choices.email)}</p>
${notice}
${oneClick}
${everything}
<p class="muted">Pour recevoir à nouveau des e-mails, ou choisir boutique par boutique, connectez-vous : <a href="/notif">Réglages des notifications</a>. Chaque choix est conservé avec sa date, comme preuve de votre accord.</p>`,
  );
}
