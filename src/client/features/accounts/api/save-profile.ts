import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProfileInput } from "../../../../domain/schemas/profile.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";

/** Empty optional fields travel as "" (the schema turns them into null). */
const saveProfile = (input: ProfileInput) =>
  unwrap(
    api.accounts.profile.$put({
      json: { ...input, birthday: input.birthday ?? "", postalCode: input.postalCode ?? "", phone: input.phone },
    }),
  );

export function useSaveProfile() {
  const queryClient = useQueryClient();
  const { mutateAsync } = useMutation({
    mutationFn: saveProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
  return async (input: ProfileInput) => {
    await mutateAsync(input);
  };
}
