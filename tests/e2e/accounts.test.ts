import { createHmac, } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSENT_WORDING } from "../../src/domain/schemas/accounts.ts";
import { consents, profiles, user } from "../../src/server/db/schema/index.ts";
import { eventually, expectAccessible, snap, soleHeading, type Stack, startStack, uniqueEmail } from "../setup/e2e.ts";
import { LONG_TEST, sleep } from "../setup/timing.ts";
import { linkIn } from "../setup/smtp.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});



/** RFC 4648 base32 → bytes. */
function base32Decode(input: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of input.replace(/=+$/, "").toUpperCase()) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 TOTP (HMAC-SHA1, 30 s steps, 6 digits), computed independently of the app. */
function totp(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const hmac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const binary = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(binary).padStart(6, "0");
}


/**
 * better-auth also allows 3 sign-ins per 10 s from one address (these tests all come
 * from 127.0.0.1): when a journey signs in faster than that, wait as the product asks.
 */
async function submitSignIn(page: Page) {
  for (let attempt = 0; ; attempt++) {
    const answer = page.waitForResponse((r) => r.url().includes("/api/auth/sign-in/email"));
    await page.getByRole("button", { name: "Se connecter", exact: true }).click();
    const res = await answer;
    if (res.status() !== 429 || attempt >= 3) return res;
    await sleep((Number(res.headers()["x-retry-after"] ?? res.headers()["retry-after"] ?? 10) + 1) * 1000);
  }
}

/** The same patience for sign-ins over HTTP (fixtures). */
async function signInOverHttp(context: BrowserContext, email: string, password: string) {
  for (let attempt = 0; ; attempt++) {
    const res = await context.request.post(`${stack.baseUrl}/api/auth/sign-in/email`, {
      data: { email, password },
      headers: { origin: stack.baseUrl },
    });
    if (res.ok()) return;
    if (res.status() !== 429 || attempt >= 3) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
    await sleep((Number(res.headers()["x-retry-after"] ?? res.headers()["retry-after"] ?? 10) + 1) * 1000);
  }
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByLabel("Mot de passe", { exact: true }).fill(password);
  return submitSignIn(page);
}

async function signOutFromProfile(page: Page) {
  await page.goto("/profil");
  await page.getByRole("button", { name: "Se déconnecter" }).click();
  await page.waitForURL(`${stack.baseUrl}/login`);
}

async function meOf(context: BrowserContext) {
  const res = await context.request.get(`${stack.baseUrl}/api/accounts/me`);
  return ((await res.json()) as { me: { user: { email: string } } | null }).me;
}

describe("accounts journeys", () => {
  it("signs up, confirms by e-mail, fills the profile, signs out, resets and changes the password", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    const email = uniqueEmail("parcours");
    const firstPassword = "premier-mot-de-passe";
    const resetPassword = "deuxieme-mot-de-passe";
    const newestPassword = "troisieme-mot-de-passe";

    // Sign-up, keeping where the person was going.
    await page.goto("/signup?redirect=%2Fprofil");
    await eventually(() => soleHeading(page)).toBe("Créer un compte");
    await expectAccessible(page);
    await snap(page, "accounts-signup");
    await page.getByLabel("Adresse e-mail").fill(email);
    await page.getByLabel("Mot de passe", { exact: true }).fill("court");
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await eventually(() => page.getByText("Le mot de passe doit contenir au moins 8 caractères.").isVisible()).toBe(
      true,
    );
    await snap(page, "accounts-signup-error");
    await page.getByLabel("Mot de passe", { exact: true }).fill(firstPassword);
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await eventually(() => soleHeading(page)).toBe("Vérifiez vos e-mails");
    await eventually(() => page.getByText(email).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "accounts-signup-check-email");

    // The confirmation link of the real mail, carrying the redirect.
    const confirmation = await stack.smtp.waitForMail(email, (m) => m.subject.includes("Confirmez"));
    const confirmLink = linkIn(confirmation, "verify-email");
    expect(new URL(confirmLink).searchParams.get("callbackURL")).toBe("/confirm?from=email&redirect=%2Fprofil");
    await page.goto(confirmLink);
    await page.waitForURL((url) => url.pathname === "/confirm");
    await eventually(() => soleHeading(page)).toBe("Bienvenue sur Fidèle !");
    await eventually(() => page.getByText("est confirmée et vous êtes connecté").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "accounts-confirm");
    await page.getByRole("link", { name: "Compléter mon profil" }).click();

    // Profile step: names, optional fields, one unticked box per channel with the stored wording.
    await page.waitForURL((url) => url.pathname === "/create-profil" && url.searchParams.get("redirect") === "/profil");
    await eventually(() => soleHeading(page)).toBe("Faisons connaissance");
    for (const wording of Object.values(CONSENT_WORDING)) {
      expect(await page.getByLabel(wording, { exact: true }).isChecked()).toBe(false);
    }
    await expectAccessible(page);
    await snap(page, "accounts-create-profile");
    await page.getByRole("button", { name: "Enregistrer et continuer" }).click();
    await eventually(() => page.getByText("Saisissez votre prénom.").isVisible()).toBe(true);
    await page.getByLabel("Prénom").fill("Inès");
    await page.getByLabel("Nom", { exact: true }).fill("Moreau");
    await page.getByLabel("Date de naissance (facultatif)").fill("1991-04-12");
    await page.getByLabel("Code postal (facultatif)").fill("69002");
    await page.getByLabel(CONSENT_WORDING.email, { exact: true }).check();
    await snap(page, "accounts-create-profile-filled");
    await page.getByRole("button", { name: "Enregistrer et continuer" }).click();
    await page.waitForURL(`${stack.baseUrl}/profil`);
    await eventually(() => soleHeading(page)).toBe("Inès Moreau");
    await expectAccessible(page);
    await snap(page, "accounts-profil");

    const [account] = await stack.deps.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    const [profile] = await stack.deps.db.select().from(profiles).where(eq(profiles.id, account!.id));
    expect(profile).toMatchObject({
      firstName: "Inès",
      lastName: "Moreau",
      birthday: "1991-04-12",
      postalCode: "69002",
    });
    const stored = await stack.deps.db.select().from(consents).where(eq(consents.userId, account!.id));
    expect(stored.map((c) => [c.channel, c.granted, c.wording]).sort()).toEqual([
      ["email", true, CONSENT_WORDING.email],
      ["push", false, CONSENT_WORDING.push],
      ["sms", false, CONSENT_WORDING.sms],
    ]);

    // Sign-out lands on /login (SPEC §4) and the session is gone.
    await page.getByRole("button", { name: "Se déconnecter" }).click();
    await page.waitForURL(`${stack.baseUrl}/login`);
    expect(await meOf(context)).toBeNull();

    // Forgotten password → the link from the mail → a new password.
    await page.getByRole("link", { name: "Mot de passe oublié ?" }).click();
    await page.waitForURL(`${stack.baseUrl}/mot-de-passe-perdu`);
    await expectAccessible(page);
    await snap(page, "accounts-forgot-password");
    await page.getByLabel("Adresse e-mail").fill(email);
    await page.getByRole("button", { name: "Recevoir le lien" }).click();
    await eventually(() => page.getByText("vous allez recevoir un lien").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "accounts-forgot-password-sent");
    const resetMail = await stack.smtp.waitForMail(email, (m) => m.subject.includes("Réinitialisez"));
    await page.goto(linkIn(resetMail, "reset-password"));
    await page.waitForURL((url) => url.pathname === "/reset-password" && url.searchParams.has("token"));
    await eventually(() => soleHeading(page)).toBe("Nouveau mot de passe");
    await expectAccessible(page);
    await page.getByLabel("Nouveau mot de passe", { exact: true }).fill(resetPassword);
    await page.getByLabel("Confirmez le nouveau mot de passe").fill(`${resetPassword}x`);
    await page.getByRole("button", { name: "Changer mon mot de passe" }).click();
    await eventually(() => page.getByText("Les deux mots de passe ne sont pas identiques.").isVisible()).toBe(true);
    await snap(page, "accounts-reset-password-mismatch");
    await page.getByLabel("Confirmez le nouveau mot de passe").fill(resetPassword);
    await page.getByRole("button", { name: "Changer mon mot de passe" }).click();
    await page.waitForURL(`${stack.baseUrl}/login`);
    await eventually(() => page.getByText("Votre mot de passe a été changé.").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "accounts-login-after-reset");

    // The old password no longer works; the new one does.
    await page.getByLabel("Adresse e-mail").fill(email);
    await page.getByLabel("Mot de passe", { exact: true }).fill(firstPassword);
    await submitSignIn(page);
    await eventually(() => page.getByText("Adresse e-mail ou mot de passe incorrect.").isVisible()).toBe(true);
    await page.getByLabel("Mot de passe", { exact: true }).fill(resetPassword);
    await submitSignIn(page);
    await page.waitForURL(`${stack.baseUrl}/`);
    await eventually(() => soleHeading(page)).toBe("Bonjour Inès");

    // Change password, signed in (both addresses are the same page).
    await page.goto("/change-password");
    await eventually(() => soleHeading(page)).toBe("Changer de mot de passe");
    await page.goto("/changer-mot-de-passe");
    await eventually(() => soleHeading(page)).toBe("Changer de mot de passe");
    await expectAccessible(page);
    await snap(page, "accounts-change-password");
    await page.getByLabel("Mot de passe actuel").fill("pas-le-bon-mot-de-passe");
    await page.getByLabel("Nouveau mot de passe", { exact: true }).fill(newestPassword);
    await page.getByRole("button", { name: "Changer mon mot de passe" }).click();
    await eventually(() => page.getByText("Mot de passe incorrect.").first().isVisible()).toBe(true);
    await snap(page, "accounts-change-password-wrong");
    await page.getByLabel("Mot de passe actuel").fill(resetPassword);
    await page.getByRole("button", { name: "Changer mon mot de passe" }).click();
    await eventually(() => soleHeading(page)).toBe("Mot de passe changé");
    await expectAccessible(page);
    await snap(page, "accounts-change-password-done");

    // Newest password works, the previous one does not.
    await signOutFromProfile(page);
    await signInWithPassword(page, email, resetPassword);
    await eventually(() => page.getByText("Adresse e-mail ou mot de passe incorrect.").isVisible()).toBe(true);
    await page.getByLabel("Mot de passe", { exact: true }).fill(newestPassword);
    await submitSignIn(page);
    await page.waitForURL(`${stack.baseUrl}/`);
    expect((await meOf(context))?.user.email).toBe(email);
    await context.close();
  }, LONG_TEST);

  it("edits the profile, prefilled, and records only the consents that change", async () => {
    const account = await stack.createUser({ firstName: "Jules", lastName: "Petit" });
    const context = await stack.newContext();
    await signInOverHttp(context, account.email, account.password);
    const page = await context.newPage();
    await page.goto("/edit-profil");
    await eventually(() => soleHeading(page)).toBe("Modifier mon profil");
    expect(await page.getByLabel("Prénom").inputValue()).toBe("Jules");
    expect(await page.getByLabel("Nom", { exact: true }).inputValue()).toBe("Petit");
    await expectAccessible(page);
    await snap(page, "accounts-edit-profile");
    await page.getByLabel("Code postal (facultatif)").fill("123");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await eventually(() => page.getByText("Le code postal doit contenir 5 chiffres.").isVisible()).toBe(true);
    await page.getByLabel("Code postal (facultatif)").fill("33000");
    await page.getByLabel(CONSENT_WORDING.sms, { exact: true }).check();
    // SMS need a mobile number, validated and stored in E.164.
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await eventually(() => page.getByText("Indiquez votre numéro de mobile pour recevoir des SMS.").isVisible()).toBe(true);
    await page.getByLabel("Téléphone mobile (facultatif)").fill("01 42 68 53 00");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await eventually(() => page.getByText(/pas un numéro de mobile valide/).isVisible()).toBe(true);
    await page.getByLabel("Téléphone mobile (facultatif)").fill("06 12 34 56 78");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await page.waitForURL(`${stack.baseUrl}/profil`);
    await eventually(() => page.getByText("Votre profil est enregistré.").isVisible()).toBe(true);

    // Back on the form: what was saved is shown.
    await page.goto("/edit-profil");
    await eventually(() => page.getByLabel("Code postal (facultatif)").inputValue()).toBe("33000");
    expect(await page.getByLabel(CONSENT_WORDING.sms, { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel("Téléphone mobile (facultatif)").inputValue()).toBe("06 12 34 56 78");
    const [saved] = await stack.deps.db.select().from(profiles).where(eq(profiles.id, account.id));
    expect(saved?.phone).toBe("+33612345678");
    expect(await page.getByLabel(CONSENT_WORDING.email, { exact: true }).isChecked()).toBe(false);
    const smsRows = await stack.deps.db
      .select()
      .from(consents)
      .where(and(eq(consents.userId, account.id), eq(consents.channel, "sms")));
    expect(smsRows.map((r) => r.granted)).toEqual([true]);
    await context.close();
  });

  it("signs in with a code sent by e-mail", async () => {
    const account = await stack.createUser({ firstName: "Léa" });
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Adresse e-mail").fill(account.email);
    await page.getByRole("button", { name: "Recevoir un code par e-mail" }).click();
    await eventually(() => soleHeading(page)).toBe("Connexion par code");
    // The address typed on the password form is kept.
    expect(await page.getByLabel("Adresse e-mail").inputValue()).toBe(account.email);
    await expectAccessible(page);
    await snap(page, "accounts-login-code-request");
    await page.getByRole("button", { name: "Recevoir un code" }).click();
    await eventually(() => page.getByLabel("Code reçu par e-mail").isVisible()).toBe(true);
    const mail = await stack.smtp.waitForMail(account.email, (m) => m.subject.startsWith("Votre code de connexion"));
    const code = /(\d{6})/.exec(mail.subject)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel("Code reçu par e-mail").fill(code === "000000" ? "111111" : "000000");
    await submitSignIn(page);
    await eventually(() => page.getByText("Code incorrect.").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "accounts-login-code");
    await page.getByLabel("Code reçu par e-mail").fill(code!);
    await submitSignIn(page);
    await page.waitForURL(`${stack.baseUrl}/`);
    await eventually(() => soleHeading(page)).toBe("Bonjour Léa");
    await context.close();
  });

  it("turns on TOTP with recovery codes, then asks for a code (or a recovery code) at sign-in", async () => {
    const owner = await stack.createUser({ firstName: "Sophie", lastName: "Durand" });
    await stack.createShop(owner.id, { name: "Fromagerie Durand" });
    const context = await stack.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.baseUrl });
    await signInOverHttp(context, owner.email, owner.password);
    const page = await context.newPage();

    // A shop owner is nudged towards two-factor.
    await page.goto("/profil");
    await eventually(() => page.getByText("Protégez votre compte commerçant").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "accounts-profil-owner-nudge");
    await page.getByRole("link", { name: "Activer la double authentification" }).click();
    await page.waitForURL(`${stack.baseUrl}/protected`);
    await eventually(() => soleHeading(page)).toBe("Sécurité du compte");
    await eventually(() => page.getByText("Cet appareil").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "accounts-security");

    await page.getByRole("button", { name: "Activer", exact: true }).click();
    await page.getByLabel("Mot de passe", { exact: true }).fill("pas-le-bon");
    await page.getByRole("button", { name: "Continuer" }).click();
    await eventually(() => page.getByText("Mot de passe incorrect.").isVisible()).toBe(true);
    await page.getByLabel("Mot de passe", { exact: true }).fill(owner.password);
    await page.getByRole("button", { name: "Continuer" }).click();
    const qr = page.getByRole("img", { name: "QR code à scanner avec votre application d'authentification" });
    await eventually(() => qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml/);
    const secret = (await page.getByTestId("totp-secret").getAttribute("data-secret")) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect((await page.getByTestId("totp-secret").textContent())?.replace(/\s/g, "")).toBe(secret);
    await expectAccessible(page);
    await snap(page, "accounts-security-totp-scan");
    await page.getByLabel("Code à 6 chiffres").fill("12345");
    await page.getByRole("button", { name: "Confirmer et activer" }).click();
    await eventually(() =>
      page.getByText("Saisissez le code à 6 chiffres affiché par l'application.").isVisible(),
    ).toBe(true);
    await page.getByLabel("Code à 6 chiffres").fill(totp(secret));
    await page.getByRole("button", { name: "Confirmer et activer" }).click();

    // The ten recovery codes, once, with a copy button.
    const codes = page.getByTestId("recovery-code");
    await eventually(() => codes.count()).toBe(10);
    const recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
    await page.getByRole("button", { name: "Copier les codes" }).click();
    await eventually(() => page.getByText("Copié dans le presse-papiers.").isVisible()).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCodes.join("\n"));
    await expectAccessible(page);
    await snap(page, "accounts-security-recovery-codes");
    await page.getByRole("button", { name: "J'ai mis mes codes à l'abri" }).click();
    await eventually(() => page.getByText("Activée", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(recoveryCodes[0]!).count()).toBe(0);
    await snap(page, "accounts-security-totp-on");

    // Sign-in now asks for the code from the app.
    await signOutFromProfile(page);
    await signInWithPassword(page, owner.email, owner.password);
    await eventually(() => soleHeading(page)).toBe("Double authentification");
    expect(await meOf(context)).toBeNull();
    await expectAccessible(page);
    await snap(page, "accounts-login-totp");
    await page.getByLabel("Code de vérification").fill(totp(secret) === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Vérifier" }).click();
    await eventually(() => page.getByText("Code incorrect.").isVisible()).toBe(true);
    await page.getByLabel("Code de vérification").fill(totp(secret));
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page.waitForURL(`${stack.baseUrl}/admin`);
    expect((await meOf(context))?.user.email).toBe(owner.email);

    // Or with a recovery code, which then cannot serve twice.
    await signOutFromProfile(page);
    await signInWithPassword(page, owner.email, owner.password);
    await eventually(() => soleHeading(page)).toBe("Double authentification");
    await page.getByLabel("Code de vérification").fill(recoveryCodes[3]!);
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page.waitForURL(`${stack.baseUrl}/admin`);
    expect((await meOf(context))?.user.email).toBe(owner.email);
    await signOutFromProfile(page);
    await signInWithPassword(page, owner.email, owner.password);
    await eventually(() => soleHeading(page)).toBe("Double authentification");
    await page.getByLabel("Code de vérification").fill(recoveryCodes[3]!);
    await page.getByRole("button", { name: "Vérifier" }).click();
    await eventually(() => page.getByText("Code de secours incorrect.").isVisible()).toBe(true);
    await page.getByLabel("Code de vérification").fill(totp(secret));
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page.waitForURL(`${stack.baseUrl}/admin`);

    // Turning it off takes the password; then sign-in asks for no code.
    await page.goto("/protected");
    await page.getByRole("button", { name: "Désactiver…" }).click();
    await page.getByLabel("Mot de passe", { exact: true }).fill(owner.password);
    await page.getByRole("button", { name: "Désactiver la double authentification" }).click();
    await eventually(() => page.getByText("La double authentification est désactivée.").isVisible()).toBe(true);
    await eventually(() => page.getByText("Désactivée", { exact: true }).isVisible()).toBe(true);
    await signOutFromProfile(page);
    await signInWithPassword(page, owner.email, owner.password);
    await page.waitForURL(`${stack.baseUrl}/admin`);
    await context.close();
  }, LONG_TEST);

  it("lists the devices signed in and signs the others out", async () => {
    const account = await stack.createUser();
    const phone = await stack.newContext();
    const other = await stack.newContext({
      userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Firefox/140.0",
    });
    await signInOverHttp(other, account.email, account.password);
    await signInOverHttp(phone, account.email, account.password);
    const page = await phone.newPage();
    await page.goto("/protected");
    await eventually(() => page.getByTestId("session-row").count()).toBe(2);
    await eventually(() => page.getByText("Firefox sur Windows").isVisible()).toBe(true);
    await snap(page, "accounts-security-devices");
    await page.getByRole("button", { name: "Déconnecter l'autre appareil" }).click();
    await eventually(() => page.getByText("Vos autres appareils ont été déconnectés.").isVisible()).toBe(true);
    await eventually(() => page.getByTestId("session-row").count()).toBe(1);
    expect(await meOf(other)).toBeNull();
    expect((await meOf(phone))?.user.email).toBe(account.email);
    await phone.close();
    await other.close();
  });

  it("sends an unconfirmed address signing in a new link that lands on /confirm", async () => {
    const account = await stack.createUser({ firstName: "Nora", emailVerified: false });
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/login?redirect=%2Fedit-profil");
    await page.getByLabel("Adresse e-mail").fill(account.email);
    await page.getByLabel("Mot de passe", { exact: true }).fill(account.password);
    await submitSignIn(page);
    await eventually(() => page.getByText("Votre adresse e-mail n'est pas encore confirmée.").isVisible()).toBe(true);
    const mail = await stack.smtp.waitForMail(account.email, (m) => m.subject.includes("Confirmez"));
    const link = linkIn(mail, "verify-email");
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/confirm?from=email&redirect=%2Fedit-profil");
    await page.goto(link);
    await eventually(() => soleHeading(page)).toBe("Bienvenue sur Fidèle !");
    // The profile is already complete: straight on to where the person was going.
    await page.getByRole("link", { name: "Continuer" }).click();
    await page.waitForURL(`${stack.baseUrl}/edit-profil`);
    await context.close();
  });

  it("explains bad links and offers a new one", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/confirm?error=TOKEN_EXPIRED");
    await eventually(() => soleHeading(page)).toBe("Ce lien a expiré");
    await expectAccessible(page);
    await snap(page, "accounts-confirm-expired");
    await page.getByLabel("Adresse e-mail").fill("personne@test.fidele.local");
    await page.getByRole("button", { name: "Recevoir un nouveau lien" }).click();
    await eventually(() => page.getByText("un nouveau lien vient de lui être envoyé").isVisible()).toBe(true);

    // A forged confirmation token: better-auth sends back to /confirm?error=….
    await page.goto("/api/auth/verify-email?token=faux&callbackURL=%2Fconfirm");
    await page.waitForURL((url) => url.pathname === "/confirm" && url.searchParams.get("error") === "INVALID_TOKEN");
    await eventually(() => soleHeading(page)).toBe("Ce lien n'est pas valable");

    // A forged reset token: better-auth sends to /reset-password?error=INVALID_TOKEN.
    await page.goto("/api/auth/reset-password/faux?callbackURL=%2Freset-password");
    await page.waitForURL(
      (url) => url.pathname === "/reset-password" && url.searchParams.get("error") === "INVALID_TOKEN",
    );
    await eventually(() => soleHeading(page)).toBe("Lien expiré");
    await expectAccessible(page);
    await snap(page, "accounts-reset-password-invalid");
    await page.getByRole("link", { name: "Recevoir un nouveau lien" }).click();
    await page.waitForURL(`${stack.baseUrl}/mot-de-passe-perdu`);

    // Signed-in pages send a visitor to /login, keeping the way back.
    await page.goto("/protected");
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("redirect") === "/protected");
    await context.close();
  });
});
