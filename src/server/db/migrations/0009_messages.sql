CREATE TABLE "message_deliveries" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"message_id" text NOT NULL,
	"user_id" text NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"detail" text,
	"claimed_at" timestamp with time zone,
	"not_before" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"clicked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_preferences" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"user_id" text NOT NULL,
	"shop_id" text,
	"channel" text NOT NULL,
	"granted" boolean NOT NULL,
	"wording" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text,
	"author_id" text,
	"audience" text NOT NULL,
	"segment" jsonb,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"image_url" text,
	"link_url" text,
	"with_push" boolean DEFAULT true NOT NULL,
	"is_promotional" boolean DEFAULT true NOT NULL,
	"status" text NOT NULL,
	"scheduled_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"total" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"user_id" text NOT NULL,
	"device_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"user_agent" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_subscriptions_deviceId_unique" UNIQUE("device_id"),
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
ALTER TABLE "message_deliveries" ADD CONSTRAINT "message_deliveries_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_deliveries" ADD CONSTRAINT "message_deliveries_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_preferences" ADD CONSTRAINT "message_preferences_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_preferences" ADD CONSTRAINT "message_preferences_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_deliveries_message_id_user_id_channel_index" ON "message_deliveries" USING btree ("message_id","user_id","channel");--> statement-breakpoint
CREATE INDEX "message_deliveries_message_id_status_index" ON "message_deliveries" USING btree ("message_id","status");--> statement-breakpoint
CREATE INDEX "message_deliveries_inbox_idx" ON "message_deliveries" USING btree ("user_id","created_at") WHERE "message_deliveries"."channel" = 'inapp' and "message_deliveries"."status" = 'delivered';--> statement-breakpoint
CREATE INDEX "message_deliveries_push_cap_idx" ON "message_deliveries" USING btree ("user_id","delivered_at") WHERE "message_deliveries"."channel" = 'push' and "message_deliveries"."status" = 'delivered';--> statement-breakpoint
CREATE INDEX "message_preferences_user_id_shop_id_channel_created_at_index" ON "message_preferences" USING btree ("user_id","shop_id","channel","created_at");--> statement-breakpoint
CREATE INDEX "messages_shop_id_created_at_index" ON "messages" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_due_idx" ON "messages" USING btree ("scheduled_at") WHERE "messages"."status" in ('scheduled', 'sending');--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_id_index" ON "push_subscriptions" USING btree ("user_id");