-- The logo as a small PNG for Apple Wallet (PNG only), drawn by the owner's browser when the logo is chosen (ADR 0045).
ALTER TABLE "shops" ADD COLUMN "wallet_logo" text;
