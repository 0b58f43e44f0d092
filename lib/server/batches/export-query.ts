import 'server-only';
import { z } from 'zod';
import { DateRangeSchema } from '../../contract/schemas';
import { COLUMN_IDS, isColumnId } from '../../export/columns';
import type { ColumnId } from '../../export/strings';
import { canonicalZone, UTC } from '../../explorer/zones';

const columnList = z
  .string()
  .max(500, 'at most 500 characters')
  .transform((text, ctx) => {
    const ids = text.split(',');
    const unknown = ids.find((id) => !isColumnId(id));
    if (unknown !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: `unknown column ${JSON.stringify(unknown.slice(0, 40))}; the columns are ${COLUMN_IDS.join(', ')}`,
      });
    else if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: 'names a column twice' });
    return ids as ColumnId[];
  });

const zone = z.string().transform((text, ctx) => {
  const canonical = canonicalZone(text);
  if (canonical === null)
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(text.slice(0, 64))} is not an IANA time zone` });
  return canonical ?? UTC;
});

/**
 * Query of /api/batches/export: the range by the service's rules; `format` csv (the service's 18 fields, the
 * default) or xlsx (the table's columns, typed); for xlsx the `zone` dates are written in (UTC unless given)
 * and the `columns` (table column ids, in the order wanted; every column unless given).
 */
export const ExportQuerySchema = z.strictObject({
  ...DateRangeSchema.shape,
  format: z.enum(['csv', 'xlsx']).default('csv'),
  zone: zone.optional(),
  columns: columnList.optional(),
});
export type ExportQuery = z.infer<typeof ExportQuerySchema>;
