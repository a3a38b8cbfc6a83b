CREATE TABLE "email_events" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"email" text NOT NULL,
	"kind" text NOT NULL,
	"delivery_id" text,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "kind" text DEFAULT 'message' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "preheader" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "blocks" jsonb;--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_delivery_id_message_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."message_deliveries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_events_email_kind_index" ON "email_events" USING btree ("email","kind");--> statement-breakpoint
CREATE INDEX "email_events_delivery_id_index" ON "email_events" USING btree ("delivery_id");