import { WINNING_STATUS_LABELS_FR } from "../../../domain/contests/contests.ts";
import {
  type CardMode,
  formatAmount,
  formatDateTimeIn,
  formatLocalDate,
  formatNumber,
} from "../../../domain/format.ts";
import type { CsvValue } from "../../../domain/loyalty/csv.ts";
import { LEDGER_KIND_LABELS_FR } from "../../../domain/loyalty/ledger.ts";
import { type PrepaidKind, prepaidAmountLabel, prepaidLastDay } from "../../../domain/loyalty/prepaid.ts";
import { REDEMPTION_STATUS_LABELS_FR, type RedemptionSource } from "../../../domain/loyalty/rewards.ts";
import {
  SCAN_FLAG_LABELS_FR,
  SCAN_METHOD_LABELS_FR,
  SCAN_OUTCOME_LABELS_FR,
} from "../../../domain/loyalty/scan-rules.ts";
import { DEFAULT_TIMEZONE } from "../../../domain/loyalty/time.ts";
import {
  CHANNEL_LABELS_FR,
  MESSAGE_STATUS_LABELS_FR,
  PLATFORM_AUDIENCE_LABELS_FR,
} from "../../../domain/messages/segments.ts";
import { shopRoleLabel } from "../../../domain/roles.ts";
import { formatPhone } from "../../../domain/messages/phone.ts";
import type { emailEvents, mailOutbox, messageDeliveries, messages, smsOutbox } from "../../db/schema/index.ts";
import { AUDIT_ACTIONS } from "../../lib/audit.ts";
import type { ExportTable, Row } from "./rgpd-sources.ts";

/**
 * « Mes données » as a person reads it (issue 25 row 9): the CSV files of the archive, in French, with the words a
 * person uses — a shop's name rather than its id, dates at Paris time, « oui » and « non », statuses in words — and
 * without what only the software reads (ids, keys, hashes, idempotency keys). donnees.json keeps every column as
 * stored, for portability (RGPD art. 20). Each file names the tables it reads: every table of EXPORT_SOURCES is read
 * by a file or named in JSON_ONLY (tests/api/rgpd.test.ts), so a new table cannot be left out of the readable part
 * without a word in LISEZ-MOI.txt.
 */

export type PersonalData = Record<ExportTable, Row[]>;
/** One line of a file: French header → cell, in column order. */
type Cells = Record<string, CsvValue>;

/** What the files show instead of ids (rgpd-archive.ts loads them for the ids in the person's rows). */
export type Names = {
  shop: (id: unknown) => string;
  cardMode: (shopId: unknown) => CardMode;
  contest: (id: unknown) => { title: string; shop: string; kind: string } | undefined;
  /** The lot of a contest's prize (a wheel's slice). */
  prizeLot: (id: unknown) => string;
  lot: (id: unknown) => string;
};

export type ArchiveFile = {
  name: string;
  /** A noun phrase, for LISEZ-MOI.txt: « Vos cartes de fidélité ». */
  topic: string;
  /** What its columns say, for LISEZ-MOI.txt. */
  details: string;
  from: readonly ExportTable[];
  rows: (data: PersonalData, names: Names, me: { id: string }) => Cells[];
};

const TZ = DEFAULT_TIMEZONE;

/** A stored instant: a Date, or the driver's text ("2026-03-12 13:05:00.123+00"; with no zone, UTC as drizzle writes it). */
function instant(v: unknown): Date | null {
  if (v instanceof Date) return v;
  if (typeof v !== "string" || v === "") return null;
  return new Date(/(Z|[+-]\d\d(:?\d\d)?)$/.test(v) ? v : `${v}Z`);
}
const at = (v: unknown) => {
  const d = instant(v);
  return d ? formatDateTimeIn(d, TZ) : "";
};
/** A calendar date (a birthday): never moved by a time zone. */
const day = (v: unknown) => (typeof v === "string" && v ? formatLocalDate(v) : "");
const phone = (v: unknown) => (typeof v === "string" && v ? formatPhone(v) : "");
const yesNo = (v: unknown) => (v ? "oui" : "non");
const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const word = (labels: Record<string, string>, v: unknown) =>
  v === null || v === undefined ? "" : (labels[String(v)] ?? String(v));
const chrono = (rows: Row[], column = "created_at") =>
  [...rows].sort((a, b) => (instant(a[column])?.getTime() ?? 0) - (instant(b[column])?.getTime() ?? 0));

/** "10 points en plus", "1 tampon en moins", in the card's own unit. */
const movement = (mode: CardMode, delta: unknown) => {
  const n = Number(delta);
  if (!n) return "aucun";
  return `${formatAmount(mode, Math.abs(n))} ${n > 0 ? "en plus" : "en moins"}`;
};

const CHANNELS: Record<(typeof messageDeliveries.$inferSelect)["channel"], string> = CHANNEL_LABELS_FR;
const DELIVERY_STATUSES: Record<(typeof messageDeliveries.$inferSelect)["status"], string> = {
  pending: "En attente",
  claimed: "En cours d'envoi",
  delivered: "Remis",
  failed: "Échec",
  skipped: "Non envoyé",
};
const MESSAGE_KINDS: Record<(typeof messages.$inferSelect)["kind"], string> = {
  message: "Message d'une boutique",
  newsletter: "Newsletter",
  notice: "Message personnel",
  automation: "Message automatique d'une boutique",
};
const AUDIENCES: Record<(typeof messages.$inferSelect)["audience"], string> = {
  ...PLATFORM_AUDIENCE_LABELS_FR,
  customers: "Les clients de la boutique",
  occasions: "Les clients concernés par un message automatique",
  review_requests: "Les clients à qui la boutique demande leur avis",
};
const REDEMPTION_SOURCES: Record<RedemptionSource, string> = {
  reward: "Récompense de la boutique",
  vip: "Cadeau de niveau VIP",
  birthday: "Cadeau d'anniversaire",
  offer: "Offre d'un message automatique",
  referral: "Cadeau de parrainage",
};
const INVITATION_STATUSES: Record<string, string> = {
  pending: "En attente",
  accepted: "Acceptée",
  rejected: "Refusée",
  canceled: "Annulée",
};
const SENDING_STATUSES: Record<(typeof mailOutbox.$inferSelect)["status"], string> = {
  kept: "Gardé sans envoi (aucun service d'envoi configuré)",
  sent: "Envoyé",
  failed: "Échec de l'envoi",
};
const SMS_KINDS: Record<(typeof smsOutbox.$inferSelect)["kind"], string> = {
  test: "SMS d'essai",
  campaign: "Campagne d'une boutique",
  verification: "Code de vérification",
};
const EMAIL_EVENTS: Record<(typeof emailEvents.$inferSelect)["kind"], string> = {
  hard_bounce: "Adresse refusée par votre messagerie : plus aucune newsletter ne vous est envoyée",
  complaint: "Signalé comme indésirable : plus aucune newsletter ne vous est envoyée",
  unsubscribe: "Désinscription d'une newsletter",
};

const first = (rows: Row[]): Row => rows[0] ?? {};
const fromShopOrFidele = (names: Names, shopId: unknown) => (shopId ? names.shop(shopId) : "Fidèle");

export const ARCHIVE_FILES: readonly ArchiveFile[] = [
  {
    name: "mon-compte.csv",
    topic: "Votre compte",
    details:
      "nom, adresse e-mail, téléphone, date de naissance, code client, sécurité, dates de création et d'activité",
    from: ["user", "profiles", "account", "two_factor", "personal_codes"],
    rows: (d) => {
      const user = first(d.user);
      const profile = first(d.profiles);
      return [
        {
          Prénom: text(profile.first_name),
          Nom: text(profile.last_name),
          "Adresse e-mail": text(user.email),
          "Adresse e-mail confirmée": yesNo(user.email_verified),
          "Téléphone mobile": phone(profile.phone),
          "Date de naissance": day(profile.birthday),
          "Code postal": text(profile.postal_code),
          "Code client personnel": text(first(d.personal_codes).code),
          "Connexion par mot de passe": yesNo(d.account.some((a) => a.provider_id === "credential")),
          "Double authentification": yesNo(user.two_factor_enabled || d.two_factor.length > 0),
          "Compte créé le": at(user.created_at),
          "Dernière activité": at(profile.last_seen),
          "Compte bloqué": yesNo(user.banned),
          "Motif du blocage": text(user.ban_reason),
          "Avertissement avant suppression pour inactivité": at(profile.purge_warned_at),
        },
      ];
    },
  },
  {
    name: "cartes.csv",
    topic: "Vos cartes de fidélité",
    details: "la boutique, le solde, le total gagné depuis l'ouverture de la carte, les passages",
    from: ["cards"],
    rows: (d, names) =>
      chrono(d.cards).map((c) => ({
        Boutique: names.shop(c.shop_id),
        Solde: formatAmount(names.cardMode(c.shop_id), Number(c.balance)),
        "Gagnés depuis l'ouverture": formatAmount(names.cardMode(c.shop_id), Number(c.lifetime)),
        Passages: Number(c.visits),
        "Dernier passage": at(c.last_scan_at),
        "Carte ouverte le": at(c.created_at),
      })),
  },
  {
    name: "historique-des-points.csv",
    topic: "L'historique de vos points et tampons",
    details: "chaque mouvement de vos cartes, avec la boutique, l'opération, son motif et qui l'a faite",
    from: ["ledger_entries"],
    rows: (d, names, me) =>
      chrono(d.ledger_entries).map((e) => ({
        Date: at(e.created_at),
        Boutique: names.shop(e.shop_id),
        Opération: word(LEDGER_KIND_LABELS_FR, e.kind),
        Mouvement: movement(names.cardMode(e.shop_id), e.delta),
        Motif: text(e.reason),
        Par: e.actor_id === me.id ? "Vous" : e.actor_id ? "L'équipe de la boutique" : "Fidèle (automatique)",
      })),
  },
  {
    name: "passages.csv",
    topic: "Vos passages en boutique",
    details: "chaque code scanné, crédité ou non, avec la raison d'un refus",
    from: ["scans"],
    rows: (d, names) =>
      chrono(d.scans).map((s) => ({
        Date: at(s.created_at),
        Boutique: names.shop(s.shop_id),
        Résultat: word(SCAN_OUTCOME_LABELS_FR, s.outcome),
        Comment: word(SCAN_METHOD_LABELS_FR, s.method),
        Mouvement: movement(names.cardMode(s.shop_id), s.delta),
        Multiplicateur: Number(s.multiplier) > 1 ? `×${Number(s.multiplier)}` : "",
        Remarques: ((s.flags as string[] | null) ?? []).map((f) => word(SCAN_FLAG_LABELS_FR, f)).join(" · "),
      })),
  },
  {
    name: "recompenses.csv",
    topic: "Vos récompenses et cadeaux",
    details: "ce que vous avez demandé, son coût, son code et ce qu'il est devenu",
    from: ["redemptions"],
    rows: (d, names) =>
      chrono(d.redemptions).map((r) => ({
        "Demandée le": at(r.created_at),
        Boutique: names.shop(r.shop_id),
        Récompense: text(r.title),
        Origine: word(REDEMPTION_SOURCES, r.source),
        Coût: formatAmount(names.cardMode(r.shop_id), Number(r.cost)),
        Statut: word(REDEMPTION_STATUS_LABELS_FR, r.status),
        "Code à montrer": text(r.code),
        "Valable jusqu'au": at(r.expires_at),
        "Décision le": at(r.decided_at),
        "Motif du refus": text(r.refuse_reason),
      })),
  },
  {
    name: "carnets-et-cartes-cadeaux.csv",
    topic: "Vos carnets et cartes cadeaux",
    details: "ce que vous détenez ou qui vous attend dans chaque boutique, son solde et sa fin de validité",
    from: ["prepaid_holdings"],
    rows: (d, names) =>
      chrono(d.prepaid_holdings).map((h) => ({
        "Reçu le": at(h.created_at),
        Boutique: names.shop(h.shop_id),
        Produit: text(h.title),
        Solde: prepaidAmountLabel(h.kind as PrepaidKind, Number(h.balance)),
        "Valable jusqu'au (inclus)": h.expires_at ? prepaidLastDay(instant(h.expires_at)!, TZ) : "",
        "Code à montrer": text(h.code),
        "En attente pour": text(h.recipient_email),
      })),
  },
  {
    name: "jeux-participations.csv",
    topic: "Vos participations aux jeux concours",
    details: "chaque ticket de tirage et chaque tour de roue, avec son résultat",
    from: ["contest_entries"],
    rows: (d, names) =>
      chrono(d.contest_entries).map((e) => {
        const contest = names.contest(e.contest_id);
        const wheel = contest?.kind === "wheel";
        return {
          Date: at(e.created_at),
          Jeu: contest?.title ?? "",
          Boutique: contest?.shop ?? "",
          "Type de jeu": wheel ? "Roue de la chance" : "Tirage au sort",
          Résultat: wheel ? (e.prize_id ? `Gagné : ${names.prizeLot(e.prize_id)}` : "Perdu") : "Tirage à la clôture",
          "Offres de la boutique acceptées": yesNo(e.marketing_consent),
          "Réseau d'origine (adresse coupée)": text(e.network),
        };
      }),
  },
  {
    name: "lots-gagnes.csv",
    topic: "Vos lots gagnés",
    details: "le lot, son code de retrait, la date limite et s'il vous a été remis",
    from: ["contest_winnings"],
    rows: (d, names) =>
      chrono(d.contest_winnings).map((w) => ({
        "Gagné le": at(w.created_at),
        Jeu: names.contest(w.contest_id)?.title ?? "",
        Boutique: names.shop(w.shop_id),
        Lot: names.lot(w.lot_id),
        "Code de retrait": text(w.code),
        Statut: word(WINNING_STATUS_LABELS_FR, w.status),
        "À retirer avant le": at(w.claim_by),
        "Remis le": at(w.handed_over_at),
        Remarque: text(w.note),
      })),
  },
  {
    name: "messages-recus.csv",
    topic: "Les messages que vous avez reçus",
    details: "de qui, par quel canal, s'ils vous sont parvenus, quand vous les avez lus, et leur texte",
    from: ["message_deliveries", "messages_received"],
    rows: (d) =>
      chrono(d.messages_received).map((m) => ({
        Date: at(m.created_at),
        De: text(m.shop ?? "Fidèle"),
        Type: word(MESSAGE_KINDS, m.kind),
        Canal: word(CHANNELS, m.channel),
        Statut: word(DELIVERY_STATUSES, m.status),
        "Lu le": at(m.read_at),
        Titre: text(m.title),
        Objet: text(m.subject),
        Texte: text(m.body),
        Lien: text(m.link_url),
      })),
  },
  {
    name: "messages-ecrits.csv",
    topic: "Les messages que vous avez écrits",
    details: "pour une boutique ou pour Fidèle : à qui, le texte, et leur envoi",
    from: ["messages"],
    rows: (d, names) =>
      chrono(d.messages).map((m) => ({
        "Créé le": at(m.created_at),
        Pour: fromShopOrFidele(names, m.shop_id),
        Type: word(MESSAGE_KINDS, m.kind),
        Destinataires: word(AUDIENCES, m.audience),
        Titre: text(m.title),
        Objet: text(m.subject),
        Texte: text(m.body),
        Statut: word(MESSAGE_STATUS_LABELS_FR, m.status),
        "Nombre d'envois": Number(m.total),
      })),
  },
  {
    name: "consentements.csv",
    topic: "Vos consentements",
    details: "chaque accord donné ou retiré, pour quel canal et quel expéditeur, avec le texte que vous avez vu",
    from: ["consents", "message_preferences"],
    rows: (d, names) =>
      chrono([...d.consents, ...d.message_preferences]).map((c) => ({
        Date: at(c.created_at),
        Expéditeur: c.shop_id ? names.shop(c.shop_id) : "Toutes les boutiques et Fidèle",
        Canal: word(CHANNELS, c.channel),
        Choix: c.granted ? "Accepté" : "Refusé",
        "Texte affiché": text(c.wording),
      })),
  },
  {
    name: "avis.csv",
    topic: "Vos avis sur les boutiques",
    details: "la note, votre commentaire, quand vous l'avez écrit",
    from: ["shop_reviews"],
    rows: (d, names) =>
      chrono(d.shop_reviews).map((r) => ({
        Boutique: names.shop(r.shop_id),
        Note: `${formatNumber(Number(r.rating))} sur 5`,
        Commentaire: text(r.comment),
        "Écrit le": at(r.created_at),
        "Modifié le": at(r.updated_at),
      })),
  },
  {
    name: "notes-des-boutiques.csv",
    topic: "Les notes qu'une boutique a prises sur vous",
    details: "visibles de son équipe seulement",
    from: ["customer_notes"],
    rows: (d, names) =>
      chrono(d.customer_notes, "updated_at").map((n) => ({
        Boutique: names.shop(n.shop_id),
        Note: text(n.note),
        "Modifiée le": at(n.updated_at),
      })),
  },
  {
    name: "connexions.csv",
    topic: "Vos connexions",
    details: "chaque session ouverte : quand, depuis quel navigateur, quelle adresse IP et quel fuseau horaire",
    from: ["session", "session_places"],
    rows: (d) =>
      chrono(d.session).map((s) => {
        const place = d.session_places.find((p) => p.session_id === s.id) ?? {};
        return {
          "Ouverte le": at(s.created_at),
          "Dernière activité": at(s.updated_at),
          "Expire le": at(s.expires_at),
          Navigateur: text(s.user_agent),
          "Adresse IP": text(s.ip_address),
          "Réseau (adresse coupée)": text(place.network),
          "Fuseau horaire": text(place.time_zone),
          "Ouverte par l'assistance de Fidèle": yesNo(s.impersonated_by),
        };
      }),
  },
  {
    name: "appareils.csv",
    topic: "Vos appareils qui reçoivent les notifications",
    details: "le navigateur, quand il a été enregistré et vérifié pour la dernière fois",
    from: ["push_subscriptions"],
    rows: (d) =>
      chrono(d.push_subscriptions).map((p) => ({
        Navigateur: text(p.user_agent),
        "Enregistré le": at(p.created_at),
        "Vérifié le": at(p.checked_at),
      })),
  },
  {
    name: "equipes.csv",
    topic: "Les boutiques dont vous faites partie de l'équipe",
    details: "la boutique, votre rôle, depuis quand",
    from: ["member"],
    rows: (d, names) =>
      chrono(d.member).map((m) => ({
        Boutique: names.shop(m.organization_id),
        Rôle: shopRoleLabel(text(m.role)),
        Depuis: at(m.created_at),
      })),
  },
  {
    name: "invitations.csv",
    topic: "Les invitations à rejoindre une équipe",
    details: "celles que vous avez reçues et celles que vous avez envoyées (sans l'adresse de la personne invitée)",
    from: ["invitation"],
    rows: (d, names, me) =>
      chrono(d.invitation).map((i) => ({
        "Envoyée le": at(i.created_at),
        Boutique: names.shop(i.organization_id),
        "Envoyée par vous": yesNo(i.inviter_id === me.id),
        "Adresse invitée": i.email ? text(i.email) : "Une autre personne (adresse non reprise)",
        Rôle: shopRoleLabel(text(i.role)),
        Statut: word(INVITATION_STATUSES, i.status),
        "Expire le": at(i.expires_at),
      })),
  },
  {
    name: "journal.csv",
    topic: "Le journal des actions qui vous concernent",
    details: "ce que vous avez fait ou ce qui a été fait sur votre compte ou vos cartes, quand et par qui",
    from: ["audit_log"],
    rows: (d, names, me) =>
      chrono(d.audit_log).map((a) => ({
        Date: at(a.created_at),
        Action: word(AUDIT_ACTIONS, a.action),
        Par:
          a.actor_id === me.id
            ? "Vous"
            : !a.actor_id
              ? "Fidèle (automatique)"
              : a.shop_id
                ? "L'équipe de la boutique"
                : "L'administration de Fidèle",
        Boutique: a.shop_id ? names.shop(a.shop_id) : "",
        "Votre adresse IP": text(a.ip),
      })),
  },
  {
    name: "e-mails.csv",
    topic: "Les e-mails que Fidèle vous a écrits",
    details: "l'objet, le texte et s'ils sont partis",
    from: ["mail_outbox"],
    rows: (d) =>
      chrono(d.mail_outbox).map((m) => ({
        Date: at(m.created_at),
        Objet: text(m.subject),
        Statut: word(SENDING_STATUSES, m.status),
        Texte: text(m.text),
      })),
  },
  {
    name: "sms.csv",
    topic: "Les SMS envoyés à votre numéro",
    details: "de quelle boutique, leur texte et s'ils sont partis",
    from: ["sms_outbox"],
    rows: (d, names) =>
      chrono(d.sms_outbox).map((s) => ({
        Date: at(s.created_at),
        Numéro: phone(s.to),
        De: fromShopOrFidele(names, s.shop_id),
        Type: word(SMS_KINDS, s.kind),
        Texte: text(s.text),
        Statut: word(SENDING_STATUSES, s.status),
      })),
  },
  {
    name: "numero-sms-d-essai.csv",
    topic: "Votre numéro pour les SMS d'essai",
    details: "le numéro vérifié par un code, et celui en cours de vérification",
    from: ["sms_owner_phones"],
    rows: (d) =>
      d.sms_owner_phones.map((p) => ({
        "Numéro vérifié": phone(p.verified_phone),
        "Vérifié le": at(p.verified_at),
        "Numéro en cours de vérification": phone(p.pending_phone),
        "Code valable jusqu'au": at(p.code_expires_at),
      })),
  },
  {
    name: "newsletters-desinscriptions.csv",
    topic: "Vos désinscriptions et les retours de votre messagerie",
    details: "une newsletter quittée, un e-mail refusé ou signalé comme indésirable",
    from: ["email_events"],
    rows: (d) =>
      chrono(d.email_events).map((e) => ({
        Date: at(e.created_at),
        Événement: word(EMAIL_EVENTS, e.kind),
        Détail: text(e.detail),
      })),
  },
];

/** Tables only in donnees.json, each with what it holds (said in LISEZ-MOI.txt). */
export const JSON_ONLY: Partial<Record<ExportTable, string>> = {
  automation_occasions:
    "les occasions des messages automatiques de vos boutiques (bienvenue, « vous nous manquez »…), avec leur date, si vous étiez dans le groupe témoin tiré au hasard, qui ne reçoit pas le message pour mesurer son effet, les valeurs mises dans le message (prénom, points) et l'offre jointe avec sa date de fin",
  prepaid_entries:
    "chaque mouvement de vos carnets et cartes cadeaux (vente, utilisation en boutique, reprise d'un ancien solde), avec sa date",
  import_invitations:
    "les soldes qu'une boutique a repris de ses anciennes cartes et que vous avez récupérés avec votre code, avec la date",
  receipt_claims:
    "les codes de ticket de caisse que vous avez scannés (le numéro du ticket et sa date, pour qu'un même ticket ne serve qu'une fois)",
  till_sales:
    "les ventes et remboursements qu'une caisse reliée (Zettle) a transmis avec votre code client : le numéro du ticket, le montant, les points crédités ou repris et la date",
  scan_claims:
    "les jetons à usage unique de vos passages (un code tiré au hasard et sa date, pour qu'un même QR code ne serve pas deux fois)",
  wallet_passes:
    "les cartes que vous avez ajoutées au portefeuille de votre téléphone (Apple Wallet, Google Wallet) et les dates de leurs mises à jour",
  review_requests:
    "les demandes d'avis que vos boutiques vous ont envoyées après un passage (la date, le passage concerné, et où l'avis était demandé : Google ou Fidèle)",
  referral_codes:
    "vos liens de parrainage, un par boutique, avec l'identifiant de l'appareil et le réseau internet d'où vous l'avez ouvert",
  referrals:
    "vos parrainages : qui vous avez invité ou qui vous a invité, dans quelle boutique, leur état (en attente, à vérifier, récompensé, refusé) et ce qui a été donné",
};
