// The small script every page loads. It only enhances what the server already rendered: theme and sidebar
// toggles without a reload, toasts with timing, the no-permission dialog. Without it, every form still works.
import './styles/main.css';
import './styles/components.css';
import './styles/permissions.css';
import './styles/import.css';
import './styles/verfolgung.css';
import './styles/bilanzen.css';
import './styles/thg-anzeige.css';
import './styles/tankstelle.css';
import './styles/dashboard.css';
import './styles/hilfe.css';
import './styles/reports.css';
import { enhanceToasts } from './lib/toasts';
import { enhancePreferences } from './lib/preferences';
import { openAutoDialogs } from './lib/dialogs';
import { enhancePasswordForm } from './lib/password-rules';
import { startSessionWatch } from './lib/session';
import { enhanceReportParameter } from './lib/report-parameter';
import { enhanceDrawer, openWideFilters } from './lib/drawer';

function run(name: string, fn: () => void) {
  try {
    fn();
  } catch (err) {
    console.error(`shell: ${name} failed`, err);
  }
}

run('preferences', enhancePreferences);
run('toasts', enhanceToasts);
run('dialogs', openAutoDialogs);
run('password rules', enhancePasswordForm);
run('session', startSessionWatch);
run('report parameters', enhanceReportParameter);
run('drawer', enhanceDrawer);
run('list filters', openWideFilters);
