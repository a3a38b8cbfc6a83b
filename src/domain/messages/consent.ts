/**
 * The words of every choice about messages, stored with it (proof of consent, GDPR art. 7(1)): on /notif, on the
 * unsubscribe page an e-mail links to, and for a one-click unsubscribe (RFC 8058). The profile's own consent
 * wording is in schemas/accounts.ts (CONSENT_WORDING).
 */

/** Consent wording shown on /notif and stored with each choice (proof of consent). */
export const PREFERENCE_WORDING = {
  inapp: "Recevoir dans l'application les messages des boutiques dont je suis client et de Fidèle.",
  push: "Recevoir des notifications push sur cet appareil (nouveautés et promotions), au plus 2 par semaine et par boutique.",
  shopInapp: (shop: string) => `Recevoir dans l'application les messages de ${shop}.`,
  shopPush: (shop: string) => `Recevoir les notifications push de ${shop}.`,
  shopSms: (shop: string) => `Recevoir les SMS de ${shop}.`,
} as const;

/** The wording stored with a choice of one shop's channel on /notif. */
export function shopPreferenceWording(channel: "inapp" | "push" | "email" | "sms", shop: string): string {
  switch (channel) {
    case "inapp":
      return PREFERENCE_WORDING.shopInapp(shop);
    case "push":
      return PREFERENCE_WORDING.shopPush(shop);
    case "email":
      return EMAIL_WORDING.shop(shop);
    case "sms":
      return PREFERENCE_WORDING.shopSms(shop);
  }
}

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
