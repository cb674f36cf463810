// The address part of a master-data form (street, house number, postcode, city, country), labelled from the
// entity's own namespace (`<ns>:fields.strasse` …).
import type { FormField } from '../../records/entity.js';

export function addressFormFields(ns: string): FormField[] {
  return [
    { name: 'strasse', label: `${ns}:fields.strasse`, kind: 'text', maxLength: 200, autocomplete: 'address-line1' },
    { name: 'hausNr', label: `${ns}:fields.hausNr`, kind: 'text', maxLength: 20 },
    { name: 'plz', label: `${ns}:fields.plz`, kind: 'text', maxLength: 20, autocomplete: 'postal-code' },
    { name: 'stadt', label: `${ns}:fields.stadt`, kind: 'text', maxLength: 100, autocomplete: 'address-level2' },
    { name: 'land', label: `${ns}:fields.land`, kind: 'text', maxLength: 100, autocomplete: 'country-name' },
  ];
}
