// Shows the password rules as the user types (the server checks the same rules, src/auth/password-policy.ts,
// and additionally refuses common passwords, which only it knows).
import { iconHref } from './icons';

const CHECKS: Record<string, (pw: string) => boolean> = {
  length: (pw) => pw.length >= 8,
  upper: (pw) => /\p{Lu}/u.test(pw),
  lower: (pw) => /\p{Ll}/u.test(pw),
  digit: (pw) => /\d/.test(pw),
};

export function enhancePasswordForm(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-password-form]');
  if (!form) return;
  const input = form.querySelector<HTMLInputElement>('input[name=newPassword]');
  const confirm = form.querySelector<HTMLInputElement>('input[name=confirmPassword]');
  if (!input) return;
  const update = () => {
    const pw = input.value;
    form.querySelectorAll<HTMLLIElement>('li[data-rule]').forEach((li) => {
      const check = CHECKS[li.dataset.rule!];
      // Nothing typed yet: the rules are neutral, not red (a page shown again with its errors keeps its marks).
      if (pw === '' && !li.classList.contains('is-failed')) {
        li.classList.add('is-pending');
        li.querySelector('use')?.setAttribute('href', iconHref('info'));
        return;
      }
      if (!check) {
        li.classList.add('is-pending');
        return;
      }
      const ok = check(pw);
      li.classList.toggle('is-failed', !ok);
      li.classList.remove('is-pending');
      li.querySelector('use')?.setAttribute('href', iconHref(ok ? 'check' : 'close'));
    });
    if (confirm) {
      const mismatch = confirm.value !== '' && confirm.value !== pw;
      confirm.setCustomValidity(mismatch ? confirm.dataset.mismatch ?? 'mismatch' : '');
    }
  };
  input.addEventListener('input', update);
  confirm?.addEventListener('input', update);
  update();
}
