// The settings of the export sync. Declared here, beside the code that reads them.
import { z } from 'zod';
import { defineSetting } from '../store/index.ts';

export const skillKeepVersionsSetting = defineSetting(
  'exports.keepVersions',
  z.number().int().min(0).max(20),
  2,
  'Previous copies of each Brand Skill kept in the brand folder (hidden), newest first.',
);

export const exportCheckIntervalSetting = defineSetting(
  'exports.checkIntervalMs',
  z.number().int().min(60_000),
  60 * 60 * 1000,
  'How often every ready brand is asked for its latest export while the engine runs.',
);

export const exportNextCheckSetting = defineSetting(
  'exports.nextCheckAt',
  z.number().nullable(),
  null,
  'When the periodic check of every ready brand is next due (epoch ms): kept so that a `sync --once` from cron and an app quit within the period still do it.',
);
