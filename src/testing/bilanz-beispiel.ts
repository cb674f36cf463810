// The worked example of certificates-and-balances.md section 4 at a fresh location, through the API, for the
// tests of the Bilanzen (integration, browser, page weight): partners A (priority 1, 100 %) and B (priority 2,
// capped at 8,000 L) with their rules, certificates N-1 20,000 L (E 12), N-2 15,000 L (E 20), N-3 10,000 L (E 8) of
// biodiesel B100 (P013), and deliveries A-1 B 6,000 L, A-2 A 18,000 L, A-3 A 12,000 L, A-4 B 5,000 L in Q1 2026.
// Allocated it gives six lines, 38,000 L assigned, 7,000 L rest and 99.3894 t CO₂eq.
import type { Express } from 'express';
import request from 'supertest';
import { zertifikatEingabe } from './factories.js';

export interface Beispiel {
  standortNr: string;
  tp1: string;
  tp2: string;
  /** Number of certificate i (1..3) and delivery i (1..4). */
  N: (i: number) => string;
  A: (i: number) => string;
}

/**
 * The example's records with numbers starting with `praefix` (unique per call); fails loudly on any refusal.
 * `nurRegeln`: the location, partners and rules only (no certificates, no deliveries).
 */
export async function bilanzBeispiel(app: Express, auth: Record<string, string>, praefix: string, { nurRegeln = false } = {}): Promise<Beispiel> {
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await request(app).post(`/api${path}`).set(auth).send(body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const standortNr = praefix;
  const [tp1, tp2] = [`${praefix}A`, `${praefix}B`];
  const N = (i: number) => `${praefix}-N${i}`;
  const A = (i: number) => `${praefix}-A${i}`;
  await post('/standorte', { nr: standortNr, name: `Bilanzlager ${praefix}`, plz: '20457', stadt: 'Hamburg', land: 'Deutschland' });
  for (const nr of [tp1, tp2]) await post('/tauschpartner', { nr, name: `Partner ${nr}`, plz: '20457', stadt: 'Hamburg', land: 'Deutschland' });
  await post(`/tauschpartner/${tp1}/regeln`, { standortNr, prioritaet: 1, biogehalt: '100' });
  await post(`/tauschpartner/${tp2}/regeln`, { standortNr, prioritaet: 2, biomenge: '8000', biomengeEinheit: 'L' });
  if (nurRegeln) return { standortNr, tp1, tp2, N, A };
  for (const [i, menge, von, e] of [[1, '20000', '2026-01-05', 12], [2, '15000', '2026-02-10', 20], [3, '10000', '2026-03-01', 8]] as const) {
    // Used cooking oil: eec 0, E = ep + etd.
    const ep = (e * 0.7).toFixed(2);
    await post('/nachweise', zertifikatEingabe({
      nr: N(i), standortNr, produktNr: 'P013', menge, lieferungVon: von, lieferungBis: von, ep, etd: (e - Number(ep)).toFixed(2), gesamtStandardwert: String(e),
      lieferantZertifikatNr: 'EU-ISCC-Cert-DE100-0001',
    }));
  }
  for (const [i, partnerNr, lieferdatum, menge] of [[1, tp2, '2026-01-20', '6000'], [2, tp1, '2026-01-25', '18000'], [3, tp1, '2026-02-15', '12000'], [4, tp2, '2026-03-10', '5000']] as const) {
    await post('/ablieferungen', { nr: A(i), lieferdatum, menge, uomMenge: 'L', partnerNr, standortNr, produktNr: 'P013' });
  }
  return { standortNr, tp1, tp2, N, A };
}
