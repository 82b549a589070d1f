import { expect, test } from '@playwright/test';
import { sidebar, signUp, uniqueEmail } from './helpers';

// The form's own check (the server's zod schema) cannot see everything the server refuses; what
// only the server finds comes back as a validation_error whose `details` name the field, and the
// form shows it there, not as a generic alert. A NUL character is one such input: the schema takes
// it, the server refuses it for every field (the database cannot store it).
test('a validation error found only by the server lands on its field, from the details', async ({ page }) => {
  await signUp(page, { name: 'Fiona Fields', email: uniqueEmail('fields') });
  await sidebar(page).getByRole('link', { name: 'Webhooks' }).click();
  await page.waitForURL('**/webhooks');
  await page.getByRole('button', { name: 'Add webhook' }).first().click();
  const dialog = page.getByRole('dialog');
  const label = dialog.getByLabel('Label');
  const url = dialog.getByLabel('Endpoint URL');

  // Checked by the server only.
  await label.fill('Ops\u0000hook');
  await url.fill('https://hooks.example.test/in?sig=abc');
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  await expect(label).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toHaveText('Must not contain the NUL character (\\u0000)');
  await expect(url).not.toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText(/something went wrong/i)).toHaveCount(0);

  // Editing the field clears its error (and it does not come back as an alert).
  await label.fill('Ops hook');
  await expect(dialog.getByRole('alert')).toHaveCount(0);

  // Checked in the browser, with the server's wording: a URL with a user name and password.
  await url.fill('https://bot:hunter2@hooks.example.test/in');
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toHaveText(/^Must not contain a user name or password/);

  // The corrected form saves; the secret is shown masked.
  await url.fill('https://hooks.example.test/in?sig=abc');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: /Ops hook/ });
  await expect(row).toContainText('/in?sig=***');
});
