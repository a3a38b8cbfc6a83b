CREATE TABLE "channel_pacing" (
	"channel" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL
);
