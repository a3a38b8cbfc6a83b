// Applies the saved colour mode before the first paint, so a reload never flashes the wrong colours. It is a file,
// not an inline script, because the Content-Security-Policy allows scripts from 'self' only. Keep in step with
// src/client/app/shell/colour-mode.tsx (same storage key and values), which takes over once the app runs and
// also applies a route's forced colour mode.
(() => {
  let mode = "system";
  try {
    mode = localStorage.getItem("fidele:colour-mode") || "system";
  } catch {
    // Storage blocked (private mode, policy): follow the system.
  }
  const isDark = mode === "dark" || (mode !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", isDark);
  document.documentElement.style.colorScheme = isDark ? "dark" : "light";
})();
