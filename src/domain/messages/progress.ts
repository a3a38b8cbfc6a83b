/** 0–100: the share of a message's frozen deliveries handled (the owner's progress bar). */
export function sendingProgress(total: number, pending: number, status: string): number {
  if (total === 0) return status === "sent" ? 100 : 0;
  return Math.round(((total - pending) / total) * 100);
}
