// The report generator (views/reports/auswertungen.ejs) offers every parameter field; this hides those the
// chosen report does not take, and disables them so the form does not send them. Without it all fields show and
// a report ignores what it does not take, which the page says.
export function enhanceReportParameter(): void {
  const select = document.querySelector<HTMLSelectElement>('select[data-report-parameter-map]');
  if (!select) return;
  const map = JSON.parse(select.dataset.reportParameterMap ?? '{}') as Record<string, string[]>;
  const fields = [...document.querySelectorAll<HTMLSelectElement>('[data-report-parameter]')];
  const apply = () => {
    const takes = map[select.value];
    for (const field of fields) {
      const used = !takes || takes.includes(field.dataset.reportParameter ?? '');
      const wrapper = field.closest<HTMLElement>('.field');
      if (wrapper) wrapper.hidden = !used;
      field.disabled = !used;
    }
  };
  select.addEventListener('change', apply);
  apply();
}
