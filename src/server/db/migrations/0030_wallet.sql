CREATE TABLE "wallet_passes" (
	"card_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"auth_token" text NOT NULL,
	"content_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"apple_pushed_hash" text,
	"apple_pushed_at" timestamp with time zone,
	"google_issued_at" timestamp with time zone,
	"google_synced_hash" text,
	"google_notified_on" date,
	"google_notified_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_registrations" (
	"device_id" text NOT NULL,
	"card_id" text NOT NULL,
	"push_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_registrations_device_id_card_id_pk" PRIMARY KEY("device_id","card_id")
);
--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_registrations" ADD CONSTRAINT "wallet_registrations_card_id_wallet_passes_card_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."wallet_passes"("card_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_passes_user_id_index" ON "wallet_passes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "wallet_registrations_card_id_index" ON "wallet_registrations" USING btree ("card_id");
