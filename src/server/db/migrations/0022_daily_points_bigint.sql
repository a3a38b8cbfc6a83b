ALTER TABLE "shop_daily_deltas" ALTER COLUMN "points" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "shop_daily_stats" ALTER COLUMN "points" SET DATA TYPE bigint;