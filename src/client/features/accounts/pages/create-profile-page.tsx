import { useNavigate, useSearchParams } from "react-router";
import { safeRedirect } from "../../../../domain/schemas/accounts.ts";
import { Page } from "../../../components/ui/page.tsx";
import { useMe } from "../../../lib/me.ts";
import { useSaveProfile } from "../api/save-profile.ts";
import { ProfileForm, type ProfileValues } from "../components/profile-form.tsx";

/** The short profile step after sign-up; then on to where the person was going. */
export default function CreateProfilePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const saveProfile = useSaveProfile();
  const redirect = safeRedirect(params.get("redirect"));
  const initial: ProfileValues | undefined = me
    ? {
        firstName: me.profile.firstName ?? "",
        lastName: me.profile.lastName ?? "",
        birthday: me.profile.birthday ?? "",
        postalCode: me.profile.postalCode ?? "",
        phone: "",
        consents: { email: false, sms: false, push: false },
      }
    : undefined;
  return (
    <Page
      title="Faisons connaissance"
      lead="Votre nom permet à vos commerçants de vous reconnaître au comptoir. Le reste est facultatif."
    >
      <ProfileForm
        initial={initial}
        submitLabel="Enregistrer et continuer"
        onSubmit={async (input) => {
          await saveProfile(input);
          navigate(redirect, { replace: true });
        }}
      />
    </Page>
  );
}
