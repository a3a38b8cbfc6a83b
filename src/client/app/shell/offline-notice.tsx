import { OfflineView } from "../../components/errors/offline-view.tsx";

/**
 * What a signed-in page shows when the app opened offline and this phone has no copy of the account: who is signed
 * in cannot be known without the network, so the page waits for it instead of sending the person to the login page.
 * The account query resumes by itself when the network returns, and the page then appears.
 */
export function OfflineNotice() {
  return <OfflineView />;
}
