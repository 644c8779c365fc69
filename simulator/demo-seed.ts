// The demo data set: brands in different states and workspaces, Libraries with images, video
// and audio, a ready export, pending edits, credits, and a finished beta job.
import type { SimulatorControl } from './control.ts';

export async function seedDemo(control: SimulatorControl): Promise<void> {
  const team = control.addWorkspace({ name: 'Studio North', balance: 480 });
  control.setCredits(null, { balance: 120 });
  control.addWorkspace({ name: 'Archived Client', accessible: false, balance: 10 });

  const northwind = await control.seedBrand({
    name: 'Northwind Coffee',
    website: 'https://northwind-coffee.example.com',
    withExport: true,
  });
  control.seedLibrary(northwind.id, {
    items: [
      { type: 'image', source: 'scraped', description: 'Storefront at dawn', fileSize: 24_000 },
      { type: 'image', source: 'uploaded', description: 'Latte art close-up', fileSize: 18_000 },
      {
        type: 'video',
        source: 'uploaded',
        description: 'Roastery tour',
        fileSize: 60_000,
        durationMs: 42_000,
      },
      {
        type: 'audio',
        source: 'uploaded',
        description: 'Radio spot',
        fileSize: 30_000,
        durationMs: 30_000,
      },
      { type: 'image', source: 'generated', description: 'Autumn campaign hero', fileSize: 26_000 },
    ],
  });
  control.seedEdit({
    brandId: northwind.id,
    status: 'awaiting_approval',
    changeSummary: 'Warmer primary colour for the autumn range',
  });
  control.seedEdit({
    brandId: northwind.id,
    status: 'input_required',
    changeSummary: 'Add a seasonal accent colour',
  });

  const lumen = await control.seedBrand({
    name: 'Lumen Labs',
    website: 'https://lumen-labs.example.com',
    workspaceId: team.id,
  });
  control.seedLibrary(lumen.id, { bulk: { count: 240 } });
  control.seedEdit({
    brandId: lumen.id,
    status: 'preparing',
    changeSummary: 'Tighter typography scale',
  });

  await control.seedBrand({
    name: 'Harbor & Pine',
    website: 'https://harbor-and-pine.example.com',
    status: 'analyzing',
  });
  await control.seedBrand({
    name: 'Old Orchard',
    website: 'https://old-orchard.example.com',
    status: 'failed',
    failureCode: 'SCRAPE_FAILED',
  });
}
