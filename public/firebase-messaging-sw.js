/*
 * The previous app registered its push worker at /firebase-messaging-sw.js. A phone that still has that
 * registration keeps working: this worker runs the app's own (/sw.js, which brings push from /sw-push.js),
 * until the app, once opened, registers /sw.js for the same scope and replaces it.
 */
importScripts("/sw.js");
