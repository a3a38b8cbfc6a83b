import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { and, count, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { profiles, session, user } from "../../db/schema/index.ts";
import type { Env } from "../../env.ts";
import { type FrontMatter, parseFrontMatter, renderMarkdown } from "./markdown.ts";

/** content/ at the root of the repository: one folder per kind, one Markdown file per article. */
const CONTENT_DIR = path.resolve(import.meta.dirname, "../../../../content");

export const ARTICLE_KINDS = ["blog", "presentation"] as const;
type ArticleKind = (typeof ARTICLE_KINDS)[number];

type ArticleSummary = FrontMatter & { slug: string };
type Article = ArticleSummary & { html: string };

/** Parsed files, kept until the file changes (its mtime), so an edit shows without a restart. */
const cache = new Map<string, { mtimeMs: number; article: Article }>();

async function loadFile(file: string, slug: string): Promise<Article> {
  const { mtimeMs } = await stat(file);
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.article;
  const source = await readFile(file, "utf8");
  let parsed: ReturnType<typeof parseFrontMatter>;
  try {
    parsed = parseFrontMatter(source);
  } catch (error) {
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const article = { slug, ...parsed.meta, html: renderMarkdown(parsed.body) };
  cache.set(file, { mtimeMs, article });
  return article;
}

async function slugsOf(kind: ArticleKind, dir: string): Promise<string[]> {
  const names = await readdir(path.join(dir, kind)).catch(() => [] as string[]);
  return names.filter((n) => /^[a-z0-9]+(?:-[a-z0-9]+)*\.md$/.test(n)).map((n) => n.slice(0, -3));
}

/** One article, or null when no file has this slug. The slug was validated by the route. */
export async function getArticle(kind: ArticleKind, slug: string, dir = CONTENT_DIR): Promise<Article | null> {
  const slugs = await slugsOf(kind, dir);
  if (!slugs.includes(slug)) return null;
  return loadFile(path.join(dir, kind, `${slug}.md`), slug);
}

/** Whether a blog or presentation page exists for this path (for the document's HTTP status); null if it is not one. */
export async function articlePathExists(pathname: string, dir = CONTENT_DIR): Promise<boolean | null> {
  const match = /^\/(blog|presentation)\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  return (await slugsOf(match[1] as ArticleKind, dir)).includes(decodeURIComponent(match[2]!));
}

/** Every article of a kind, newest first, without its body. */
export async function listArticles(kind: ArticleKind, dir = CONTENT_DIR): Promise<ArticleSummary[]> {
  const slugs = await slugsOf(kind, dir);
  const articles = await Promise.all(slugs.map((slug) => loadFile(path.join(dir, kind, `${slug}.md`), slug)));
  return articles
    .map(({ html: _html, ...summary }) => summary)
    .sort((a, b) => b.date.localeCompare(a.date) || a.title.localeCompare(b.title, "fr"));
}

/** The operator's legal notice (LCEN art. 6 III: publisher, publication director, host). */
export function getLegalNotice(env: Env) {
  return {
    company: env.LEGAL_COMPANY,
    address: env.LEGAL_ADDRESS,
    director: env.LEGAL_DIRECTOR,
    host: env.LEGAL_HOST,
    contact: env.LEGAL_CONTACT,
    appUrl: env.APP_URL,
  };
}

/** The account facts the shopper's dashboard shows; scoped to the signed-in user. */
export async function getAccountActivity(db: Db, userId: string) {
  const [row] = await db
    .select({ memberSince: user.createdAt, lastSeen: profiles.lastSeen })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.id, userId))
    .limit(1);
  const [sessions] = await db
    .select({ n: count() })
    .from(session)
    .where(and(eq(session.userId, userId), gt(session.expiresAt, new Date())));
  return {
    memberSince: row?.memberSince.toISOString() ?? null,
    lastSeen: row?.lastSeen?.toISOString() ?? null,
    activeSessions: sessions?.n ?? 0,
  };
}
