// The master-data entities, in sidebar order. app.ts mounts pages and API for each; the import uses the same
// configs to validate and write rows.
import { produktConfig } from '../produkte/config.js';
import { standortConfig } from '../standorte/config.js';
import { tauschpartnerConfig } from '../tauschpartner/config.js';
import type { EntityConfig } from '../../records/entity.js';

export const STAMMDATEN_ENTITIES: EntityConfig<Record<string, unknown>>[] = [
  tauschpartnerConfig as unknown as EntityConfig<Record<string, unknown>>,
  standortConfig as unknown as EntityConfig<Record<string, unknown>>,
  produktConfig as unknown as EntityConfig<Record<string, unknown>>,
];
