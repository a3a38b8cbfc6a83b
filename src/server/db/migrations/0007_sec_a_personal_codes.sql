CREATE TABLE "personal_codes" (
	"user_id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "personal_codes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "adjustment_limit" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "personal_codes" ADD CONSTRAINT "personal_codes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;