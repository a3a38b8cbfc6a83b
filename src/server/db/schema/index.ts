export * from "./auth.ts";
export * from "./app.ts";
export * from "./shops.ts";
export * from "./cards.ts";
export * from "./rewards.ts";
export * from "./contests.ts";
export * from "./messages.ts";
export * from "./audit.ts";
