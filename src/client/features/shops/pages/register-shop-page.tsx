import { useNavigate } from "react-router";
import { shopRegistrationSchema } from "../../../../domain/schemas/shops.ts";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { useRegisterShop } from "../api/register-shop.ts";
import { readCoordinate } from "../components/coordinates.ts";
import { CategoryField } from "../components/category-field.tsx";
import { PositionPicker } from "../components/position-picker.tsx";
import { Form } from "../../../components/ui/form.tsx";

function readRegistration(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? "");
  return {
    name: text("name"),
    category: text("category") || undefined,
    address: text("address"),
    city: text("city"),
    postalCode: text("postalCode"),
    phone: text("phone"),
    siret: text("siret"),
    lat: readCoordinate(form.get("lat")),
    lng: readCoordinate(form.get("lng")),
  };
}

const STEPS = ["Votre boutique", "Votre carte", "Vos clients"];

/** /inscription-boutique: a signed-in person registers a shop and becomes its owner. */
export default function RegisterShopPage() {
  const navigate = useNavigate();
  const registerShop = useRegisterShop();
  const form = useForm(
    shopRegistrationSchema,
    async (values) => {
      const shop = await registerShop(values);
      navigate(`/result-boutique?boutique=${encodeURIComponent(shop.id)}`, { replace: true, state: { shop } });
    },
    readRegistration,
  );
  const e = form.fieldErrors;
  return (
    <div className="mx-auto w-full max-w-xl px-5 pb-12 pt-6">
      <ol
        className="mb-5 flex flex-wrap items-center gap-x-1.5 gap-y-2 whitespace-nowrap text-xs font-semibold text-stone-600 dark:text-stone-400"
        aria-label="Étapes"
      >
        {STEPS.map((step, i) => (
          <li key={step} className="flex items-center gap-1.5" aria-current={i === 0 ? "step" : undefined}>
            <span
              className={`flex size-6 items-center justify-center rounded-full ${i === 0 ? "bg-brand-700 text-white" : "bg-stone-200 text-stone-700 dark:bg-stone-800 dark:text-stone-300"}`}
            >
              {i + 1}
            </span>
            <span className={i === 0 ? "text-brand-800 dark:text-brand-200" : ""}>{step}</span>
            {i < STEPS.length - 1 ? <span className="h-px w-3 bg-stone-300" aria-hidden="true" /> : null}
          </li>
        ))}
      </ol>
      <h1 className="text-2xl font-bold tracking-tight">Inscrire ma boutique</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">
        Cinq minutes suffisent. Vous pourrez tout modifier ensuite depuis votre espace commerçant. Gratuit, sans
        engagement.
      </p>
      <Form form={form} className="mt-6 flex flex-col gap-5" submit="Créer ma boutique">
        <Field label="Nom de la boutique" name="name" autoComplete="organization" maxLength={80} error={e.name} />
        <CategoryField error={e.category} />
        <Field
          label="Adresse"
          name="address"
          autoComplete="street-address"
          placeholder="12 rue du Marché"
          maxLength={160}
          error={e.address}
        />
        <div className="grid grid-cols-[7rem_minmax(0,1fr)] gap-3">
          <Field
            label="Code postal"
            name="postalCode"
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={5}
            error={e.postalCode}
            className="min-w-0"
          />
          <Field
            label="Ville"
            name="city"
            autoComplete="address-level2"
            maxLength={80}
            error={e.city}
            className="min-w-0"
          />
        </div>
        <Field
          label="Téléphone"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="04 78 00 00 00"
          error={e.phone}
        />
        <Field
          label="SIRET (facultatif)"
          name="siret"
          inputMode="numeric"
          placeholder="14 chiffres"
          hint="Il figure sur votre extrait Kbis ou sur annuaire-entreprises.data.gouv.fr."
          error={e.siret}
        />
        <PositionPicker errors={{ lat: e.lat, lng: e.lng }} />
        <Notice>
          En inscrivant votre boutique, vous en devenez le responsable sur Fidèle. Les données de vos clients restent
          les vôtres : Fidèle ne les vend ni ne les partage.
        </Notice>
      </Form>
    </div>
  );
}
