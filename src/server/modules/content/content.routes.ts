import { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { ARTICLE_KINDS, getAccountActivity, getArticle, getLegalNotice, listArticles } from "./content.service.ts";

const kindSchema = z.enum(ARTICLE_KINDS);
const slugSchema = z
  .string()
  .max(120)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

/** A malformed kind or slug names no article: the same 404 as an unknown one, so the page shows its 404. */
function parseOrNotFound<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new AppError("NOT_FOUND", {
      message: `bad ${what}`,
      userMessage: "Cette page n'existe pas ou a été retirée.",
    });
  return parsed.data;
}

/** Public content (articles from content/*.md, the legal notice) and the shopper's dashboard facts. */
const content = new Hono<AppEnv>()
  .get("/legal", (c) => c.json({ legal: getLegalNotice(c.get("deps").env) }))
  .get("/activity", async (c) => {
    const user = currentUser(c);
    return c.json({ activity: await getAccountActivity(c.get("deps").db, user.id) });
  })
  .get("/:kind", async (c) => {
    const kind = parseOrNotFound(kindSchema, c.req.param("kind"), "kind");
    return c.json({ articles: await listArticles(kind) });
  })
  .get("/:kind/:slug", async (c) => {
    const kind = parseOrNotFound(kindSchema, c.req.param("kind"), "kind");
    const slug = parseOrNotFound(slugSchema, c.req.param("slug"), "slug");
    const article = await getArticle(kind, slug);
    if (!article) {
      throw new AppError("NOT_FOUND", {
        message: `no ${kind} article ${slug}`,
        userMessage: "Cet article n'existe pas ou a été retiré.",
      });
    }
    return c.json({ article });
  });

/** The content module's routes (it has no part in a shop's back office): /api/content. */
export const contentRoutes = new Hono<AppEnv>().route("/content", content);
