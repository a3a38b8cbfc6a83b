import { useNavigate } from "react-router";
import { formatPhone } from "../../../../domain/messages/phone.ts";
import { Page } from "../../../components/ui/page.tsx";
import { useMe } from "../../../lib/me.ts";
import { useSaveProfile } from "../api/save-profile.ts";
import { ProfileForm } from "../components/profile-form.tsx";

export default function EditProfilePage() {
  const navigate = useNavigate();
  const { data: me } = useMe();
  const saveProfile = useSaveProfile();
  if (!me) return null;
  return (
    <Page title="Modifier mon profil" lead={<span className="break-all">Compte : {me.user.email}</span>}>
      <ProfileForm
        initial={{
          firstName: me.profile.firstName ?? "",
          lastName: me.profile.lastName ?? "",
          birthday: me.profile.birthday ?? "",
          postalCode: me.profile.postalCode ?? "",
          phone: me.profile.phone ? formatPhone(me.profile.phone) : "",
          consents: me.profile.consents,
        }}
        submitLabel="Enregistrer"
        onSubmit={async (input) => {
          await saveProfile(input);
          navigate("/profil", { replace: true, state: { notice: "Votre profil est enregistré." } });
        }}
      />
    </Page>
  );
}
