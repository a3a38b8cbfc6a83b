import { SHOP_CATEGORIES } from "../../../../domain/schemas/shops.ts";
import { SelectField } from "../../../components/ui/select-field.tsx";

/** A shop's category, one of SHOP_CATEGORIES; a new shop starts with none chosen. */
export function CategoryField({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  return (
    <SelectField label="Catégorie" name="category" defaultValue={defaultValue ?? ""} error={error}>
      {defaultValue ? null : (
        <option value="" disabled>
          Choisissez une catégorie
        </option>
      )}
      {SHOP_CATEGORIES.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </SelectField>
  );
}
