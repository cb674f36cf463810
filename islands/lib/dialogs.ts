// The no-permission dialog: rendered open by the server when a page was refused; made modal here so focus
// stays in it. Islands call showNoPermission() for a forbidden action.
export function showNoPermission(): void {
  const dialog = document.getElementById('no-permission-dialog') as HTMLDialogElement | null;
  if (dialog && !dialog.open) dialog.showModal();
}

export function openAutoDialogs(): void {
  document.querySelectorAll<HTMLDialogElement>('dialog[data-auto-modal][open]').forEach((dialog) => {
    dialog.close();
    dialog.showModal();
  });
}
