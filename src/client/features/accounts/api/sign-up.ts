import type { SignUpInput } from "../../../../domain/schemas/accounts.ts";
import { api, unwrap } from "../../../lib/api-client.ts";

/** Creates the account (or, for a known address, mails its owner): the answer is the same either way. */
export const signUp = (input: SignUpInput & { redirect?: string }) =>
  unwrap(api.accounts["sign-up"].$post({ json: input }));
