import { createTestApp } from '../../testing/app.js';
it('probe', async () => {
  const t = await createTestApp();
  const k = t.db.knex;
  const q = async (sql: string) => console.log(sql, JSON.stringify((await k.raw(sql)).rows));
  await q(`select mandant, nr, datum, storniert from ablieferungen where datum >= current_date - 2 order by datum desc limit 10`);
  await q(`select nb.mandant, count(*), min(a.datum), max(a.datum), sum(case when bilanz_id is null then 0 else 1 end) as pocs from nachweisbescheinigungen nb join ablieferungen a on a.mandant=nb.mandant and a.nr=nb.ablieferung_nr where not nb.storniert group by 1`);
  await q(`select mandant, nr, einheit, lcv, thg, produktgruppe, biogehalt from nachweise order by nr limit 5`);
  await q(`select mandant, id, status, zeitraum_von, zeitraum_bis, standort_nr, produkt_nr, einheit from bilanzen`);
  await q(`select mandant, count(*) from bilanz_zeilen group by 1`);
  await q(`select distinct einheit, produktgruppe, (lcv is null) as nolcv, biogehalt from nachweise`);
  await q(`select nr, name from standorte where mandant='DEMO' order by nr limit 20`);
  await q(`select mandant, count(*) from nachweise group by 1`);
  await t.close();
}, 120000);
