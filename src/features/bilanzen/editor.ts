// The props of the Bilanz editor island (islands/bilanz-editor): the Bilanz as the API shows it, whether the
// user may change it, and every text the island shows, translated here in the page's language.
import type { ChoiceOptions } from '../../records/list/engine.js';
import type { BilanzDetail } from './detail.js';

export interface EditorProps {
  bilanz: BilanzDetail;
  darfBearbeiten: boolean;
  lang: string;
  /** The Bilanz's page (the close and split pages lie below it). */
  hier: string;
  partner: { value: string; label: string }[];
  texte: Record<string, string>;
}

export function editorProps(bilanz: BilanzDetail, o: { lang: string; darfBearbeiten: boolean; hier: string; t: (key: string, params?: Record<string, unknown>) => string; partner: ChoiceOptions }): EditorProps {
  return {
    bilanz,
    darfBearbeiten: o.darfBearbeiten,
    lang: o.lang,
    hier: o.hier,
    partner: o.partner.map((c) => ({ value: c.value, label: c.raw ? c.label : o.t(c.label) })),
    texte: {},
  };
}
