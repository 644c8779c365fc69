// Builds the ZIP of a Brand Skill: a folder tree of markdown, a profile JSON, the logo, and
// colour and typography files. The same Skill always gives the same bytes (fixed mtimes).
import yazl from 'yazl';
import type { Skill } from './model.ts';
import { SPECIMEN_WOFF } from './specimen-font.ts';

const MTIME = new Date('2026-01-01T00:00:00Z');

export function skillFiles(skill: Skill): Array<[string, Buffer]> {
  const p = skill.profile;
  const logoPath = `assets/logo/primary.${skill.logo.ext}`;
  const profile = {
    schemaVersion: 1,
    skillId: skill.id,
    brandId: skill.brandId,
    version: skill.version,
    name: p.name,
    summary: p.summary,
    colors: p.colors,
    typography: p.typography,
    primaryLogo: { path: logoPath, mimeType: skill.logo.mimeType, imageId: skill.logo.imageId },
  };
  // The heading's face travels with the Skill (the body's does not: it is for the reader to
  // install), so a Skill has both kinds of typeface.
  const headingFont = `assets/fonts/${slug(p.typography.heading.family)}-regular.woff`;
  const palette = p.colors.map((c) => `  --color-${slug(c.name)}: ${c.hex};`).join('\n');
  const files: Array<[string, string | Buffer]> = [
    [
      'SKILL.md',
      `---\nname: ${slug(p.name)}-brand\ndescription: Brand guidelines for ${p.name}.\nversion: ${skill.version}\n---\n\n# ${p.name}\n\n${p.summary}\n\n` +
        `## Files\n\n- [Voice](guidelines/voice.md)\n- [Visual identity](guidelines/visual/identity.md)\n` +
        `- [Colours](guidelines/visual/colors.md)\n- [Typography](guidelines/visual/typography.md)\n- Profile: profile.json\n` +
        (skill.notes.length > 0
          ? `\n## Notes\n\n${skill.notes.map((n) => `- ${n}`).join('\n')}\n`
          : ''),
    ],
    ['profile.json', JSON.stringify(profile, null, 2) + '\n'],
    ['guidelines/voice.md', `# Voice of ${p.name}\n\n${p.voice.map((v) => `- ${v}`).join('\n')}\n`],
    [
      'guidelines/visual/identity.md',
      `# Visual identity\n\nUse the primary logo (${logoPath}) on light backgrounds with clear space around it.\n`,
    ],
    [
      'guidelines/visual/colors.md',
      `# Colours\n\n| Name | Hex |\n|---|---|\n${p.colors.map((c) => `| ${c.name} | ${c.hex} |`).join('\n')}\n\n` +
        `Set type as in [Typography](typography.md); back to the [overview](../../SKILL.md).\n`,
    ],
    [
      'guidelines/visual/typography.md',
      `# Typography\n\n- Headings: ${p.typography.heading.family} (${p.typography.heading.source})\n` +
        `- Body: ${p.typography.body.family} (${p.typography.body.source})\n\n` +
        `The heading face is in [${headingFont}](../../${headingFont}). ` +
        `More on the faces at [Google Fonts](https://fonts.google.com/).\n`,
    ],
    [logoPath, skill.logo.bytes],
    [headingFont, SPECIMEN_WOFF],
    ['assets/colors/palette.json', JSON.stringify({ colors: p.colors }, null, 2) + '\n'],
    ['assets/colors/palette.css', `:root {\n${palette}\n}\n`],
    ['assets/typography/typography.json', JSON.stringify(p.typography, null, 2) + '\n'],
  ];
  return files.map(([path, body]) => [
    path,
    typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  ]);
}

export function buildSkillZip(skill: Skill): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [path, body] of skillFiles(skill))
    zip.addBuffer(body, path, { mtime: MTIME, mode: 0o100644 });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

export function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'brand'
  );
}
