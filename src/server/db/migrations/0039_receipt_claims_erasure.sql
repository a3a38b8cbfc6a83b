-- RGPD: a receipt code stays spent after its claimant's account is erased, but no longer names them (ADR 0053).
ALTER TABLE "receipt_claims" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
UPDATE "receipt_claims" SET "user_id" = NULL WHERE "user_id" NOT IN (SELECT "id" FROM "user");--> statement-breakpoint
-- lock-ok: one row per receipt scanned since 0034 (yesterday's release); the check reads a small table once.
ALTER TABLE "receipt_claims" ADD CONSTRAINT "receipt_claims_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
