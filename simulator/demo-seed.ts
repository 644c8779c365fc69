// The demo data set: brands in different states and workspaces, Libraries with images, video
// and audio, a ready export, pending edits, credits, and a finished beta job. Its pictures are
// drawn in each brand's colours (demo-art.ts) at exactly the size their records state.
import type { SimulatorControl, SeedMediaItem } from './control.ts';
import { libraryArt } from './demo-art.ts';
import { artPalette, deriveProfile } from './work/profile.ts';

/** A drawn image item of `brand`'s Library, its record stating the picture's true size. */
function drawn(
  brand: string,
  item: { source: string; description: string; width: number; height: number },
): SeedMediaItem {
  const palette = artPalette(deriveProfile(brand, null));
  const content = libraryArt(`${brand}:${item.description}`, item.width, item.height, palette);
  return { type: 'image', mimeType: 'image/png', content, ...item };
}

/** Lumen Labs' bulk images: drawn, 384×240 (or 240×384), padded to their stated file size. */
const LUMEN_ART = {
  width: 384,
  height: 240,
  draw: (key: string, width: number, height: number) =>
    libraryArt(key, width, height, artPalette(deriveProfile('Lumen Labs', null))),
};

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
      drawn('Northwind Coffee', {
        source: 'scraped',
        description: 'Storefront at dawn',
        width: 560,
        height: 350,
      }),
      drawn('Northwind Coffee', {
        source: 'uploaded',
        description: 'Latte art close-up',
        width: 360,
        height: 480,
      }),
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
      drawn('Northwind Coffee', {
        source: 'generated',
        description: 'Autumn campaign hero',
        width: 640,
        height: 360,
      }),
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
  control.seedLibrary(lumen.id, {
    bulk: { count: 240, art: LUMEN_ART, minSize: 48_000, maxSize: 90_000 },
  });
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
