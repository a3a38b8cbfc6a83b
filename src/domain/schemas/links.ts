import { z } from "zod";
import { sameOriginPath } from "../redirect.ts";

/**
 * The addresses a shop writes into what it sends: a message's image and link, a newsletter's image and button
 * (issue 22, rows 11 and 12). One rule for the API schemas and the forms:
 * - an outside address is https://, and a link inside the app is a path of this site (sameOriginPath: never
 *   "//host" nor "/\host", which browsers follow to another site);
 * - an address never holds a merge field: {{prenom}} or {{points}} in a URL would tell a third party who opened
 *   the e-mail and their balance. Merge fields fill text only (ADR 0035).
 */
export const MERGE_FIELD_IN_URL_FR =
  "Une adresse ne peut pas contenir de champ de fusion ({{…}}) : ils ne remplissent que le texte.";
const HTTPS_ONLY_FR = "Une adresse commence par https://.";
const HTTPS_OR_PATH_FR = "Un lien commence par https:// ou par / (une page de l'application).";

const isHttpsUrl = (v: string) => /^https:\/\/[^\s"<>\\]+$/.test(v) && URL.canParse(v);
const hasMergeField = (v: string) => /\{\{|\}\}/.test(v);

/** Why an address is refused, in French; null when it is fine. `appPaths`: a path of this site is allowed too. */
export function urlProblem(value: string, appPaths: boolean): string | null {
  if (hasMergeField(value)) return MERGE_FIELD_IN_URL_FR;
  if (isHttpsUrl(value)) return null;
  if (appPaths && sameOriginPath(value) !== null) return null;
  return appPaths ? HTTPS_OR_PATH_FR : HTTPS_ONLY_FR;
}

/**
 * An address's braces percent-encoded (as a browser sends them): what fills merge fields then never sees one in it.
 * For addresses stored before the rule above, and in every e-mail template (ADR 0035).
 */
export const encodeUrlBraces = (url: string) => url.replace(/[{}]/g, (c) => (c === "{" ? "%7B" : "%7D"));

const urlSchema = (appPaths: boolean, allowEmpty = false) =>
  z
    .string()
    .trim()
    .max(2000, "Adresse trop longue.")
    .superRefine((value, ctx) => {
      const problem = allowEmpty && value === "" ? null : urlProblem(value, appPaths);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

/** An image or any outside address: https:// only. */
export const httpsUrlSchema = urlSchema(false);
/** A link or a button: https://, or a page of the app. */
export const linkUrlSchema = urlSchema(true);
/** The same, optional: "" is no link (null). */
export const optionalLinkUrlSchema = urlSchema(true, true)
  .transform((v) => (v === "" ? null : v))
  .nullish();

/**
 * Where a stored link leads, decided again where it is followed (a message saved before the rule may hold
 * "//host"): an outside https:// address, a path of this site, or nowhere (null).
 */
export function linkTarget(url: string | null | undefined): { external: boolean; href: string } | null {
  if (!url) return null;
  if (isHttpsUrl(url)) return { external: true, href: url };
  const path = sameOriginPath(url);
  return path === null ? null : { external: false, href: path };
}
