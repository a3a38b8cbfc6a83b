ALTER TABLE "profiles" ADD COLUMN "purge_warned_at" timestamp with time zone;
