// The movement-data entities built from declarations, in sidebar order. app.ts mounts pages and API for each;
// the movement-data import writes through the same declarations.
import type { EntityConfig } from '../../records/entity.js';
import { abholungConfig } from '../abholungen/config.js';
import { ablieferungConfig } from '../lieferungen/ablieferungen.js';
import { bestandConfig } from '../bestaende/config.js';
import { einlieferungConfig } from '../lieferungen/einlieferungen.js';
import { nachweisConfig } from '../nachweise/nachweis.js';
import { nachweisbescheinigungConfig } from '../nachweisbescheinigungen/config.js';

export const BEWEGUNGSDATEN_ENTITIES: EntityConfig<Record<string, unknown>>[] = [
  einlieferungConfig as unknown as EntityConfig<Record<string, unknown>>,
  ablieferungConfig as unknown as EntityConfig<Record<string, unknown>>,
  abholungConfig as unknown as EntityConfig<Record<string, unknown>>,
  bestandConfig as unknown as EntityConfig<Record<string, unknown>>,
  nachweisbescheinigungConfig as unknown as EntityConfig<Record<string, unknown>>,
  nachweisConfig as unknown as EntityConfig<Record<string, unknown>>,
];
