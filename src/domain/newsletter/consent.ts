/**
 * The wording of every e-mail choice, stored with it (proof of consent): on /notif, on
 * the unsubscribe page an e-mail links to, and for a one-click unsubscribe (RFC 8058).
 */
export const EMAIL_WORDING = {
  global: "Recevoir par e-mail les nouveautés et promotions des boutiques dont je suis client et de Fidèle.",
  shop: (shop: string) => `Recevoir les e-mails de ${shop}.`,
  oneClickShop: (shop: string) => `Désabonnement des e-mails de ${shop} en un clic, depuis un e-mail (RFC 8058).`,
  oneClickGlobal: "Désabonnement de tous les e-mails de Fidèle en un clic, depuis un e-mail (RFC 8058).",
  withdrawAllFromEmail:
    "Ne plus recevoir d'e-mails des boutiques ni de Fidèle (choix fait depuis le lien d'un e-mail).",
} as const;
