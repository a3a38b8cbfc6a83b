/**
 * better-auth answers in English; people read French. The code stays, the message
 * is replaced, so the wire keeps the one shape { code, message }.
 */
export const AUTH_MESSAGES_FR: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Adresse e-mail ou mot de passe incorrect.",
  INVALID_EMAIL: "Cette adresse e-mail n'est pas valide.",
  INVALID_PASSWORD: "Mot de passe incorrect.",
  EMAIL_NOT_VERIFIED:
    "Votre adresse e-mail n'est pas encore confirmée. Nous venons de vous renvoyer un lien de confirmation.",
  PASSWORD_TOO_SHORT: "Le mot de passe doit contenir au moins 8 caractères.",
  PASSWORD_TOO_LONG: "Le mot de passe doit contenir au plus 128 caractères.",
  INVALID_TOKEN: "Ce lien n'est plus valable. Demandez-en un nouveau.",
  TOKEN_EXPIRED: "Ce lien a expiré. Demandez-en un nouveau.",
  INVALID_OTP: "Code incorrect.",
  OTP_EXPIRED: "Ce code a expiré. Demandez-en un nouveau.",
  TOO_MANY_ATTEMPTS: "Trop de tentatives. Demandez un nouveau code.",
  INVALID_CODE: "Code incorrect.",
  INVALID_TWO_FACTOR_COOKIE: "La vérification a expiré. Reconnectez-vous.",
  INVALID_BACKUP_CODE: "Code de secours incorrect.",
  TOTP_NOT_ENABLED: "La double authentification n'est pas activée.",
  TWO_FACTOR_NOT_ENABLED: "La double authentification n'est pas activée.",
  OTP_HAS_EXPIRED: "Ce code a expiré. Demandez-en un nouveau.",
  USER_NOT_FOUND: "Adresse e-mail ou code incorrect.",
  FAILED_TO_GET_SESSION: "Votre session a expiré. Reconnectez-vous.",
  SESSION_EXPIRED: "Votre session a expiré. Reconnectez-vous.",
  SESSION_NOT_FRESH: "Par sécurité, reconnectez-vous avant de faire ce changement.",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "Aucun mot de passe n'est défini pour ce compte.",
  USER_ALREADY_HAS_PASSWORD: "Ce compte a déjà un mot de passe.",
  YOU_ARE_BANNED_FROM_THIS_APPLICATION: "Ce compte a été suspendu.",
  BANNED_USER: "Ce compte a été suspendu.",
  MISSING_OR_NULL_ORIGIN: "Requête refusée : origine manquante.",
  INVALID_ORIGIN: "Requête refusée : origine non autorisée.",
  INVALID_CALLBACK_URL: "Adresse de retour non autorisée.",
  INVALID_REDIRECT_URL: "Adresse de retour non autorisée.",
  UNAUTHORIZED: "Connectez-vous pour continuer.",
  RATE_LIMITED: "Trop de tentatives. Réessayez dans quelques instants.",
  VALIDATION_ERROR: "Certaines informations sont invalides.",
  // Met on the account screens (two-factor, confirmation links, sessions).
  TOTP_ALREADY_ENABLED: "La double authentification est déjà activée.",
  TOTP_NOT_CONFIGURED: "La double authentification n'est pas disponible.",
  BACKUP_CODES_NOT_ENABLED: "Aucun code de secours n'est disponible pour ce compte.",
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "Trop de tentatives. Reconnectez-vous pour recevoir un nouveau code.",
  ACCOUNT_TEMPORARILY_LOCKED:
    "Trop de codes incorrects : la connexion est bloquée quelques minutes. Réessayez plus tard.",
  EMAIL_ALREADY_VERIFIED: "Votre adresse e-mail est déjà confirmée.",
  EMAIL_MISMATCH: "Cette adresse ne correspond pas au compte connecté.",
  INVALID_USER: "Ce lien a été ouvert avec un autre compte connecté. Déconnectez-vous puis ouvrez-le de nouveau.",
  USER_EMAIL_NOT_FOUND: "Adresse e-mail introuvable.",
  FAILED_TO_CREATE_SESSION: "La connexion n'a pas pu aboutir. Réessayez.",
  FAILED_TO_UPDATE_USER: "La modification n'a pas pu être enregistrée. Réessayez.",
  MISSING_FIELD: "Certaines informations sont manquantes.",
  BODY_MUST_BE_AN_OBJECT: "La requête est mal formée.",
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: "Requête refusée : elle ne vient pas de Fidèle.",
};

export const AUTH_FALLBACK_FR = "La demande n'a pas pu aboutir. Vérifiez les informations saisies.";
