import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { contactExportQuerySchema, contactImportRequestSchema, type ContactImport } from '../../../shared/api/contact-imports';
import { CONTACT_LIMITS } from '../../../shared/contacts';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

/** The file in base64 (4 characters per 3 bytes) and the mapping beside it; a bigger body is InvalidCsvUpload (tooLarge). */
const IMPORT_BODY_LIMIT = Math.ceil((CONTACT_LIMITS.importBytes * 4) / 3) + 64 * 1024;

const importParamsSchema = z.object({ id: z.coerce.number().int().positive() });

/** Address book import and export: shapes and errors in shared/api/contact-imports.ts. */
export function registerContactImportRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.post('/api/contacts/imports', { bodyLimit: IMPORT_BODY_LIMIT, config: { bodyTooLarge: 'InvalidCsvUpload' } }, async (request, reply): Promise<ContactImport> => {
    const body = parseInput(contactImportRequestSchema, request.body, 'InvalidRequestData');
    const started = await ctx.contactImports.start(request.session.accountId, body);
    return reply.code(202).send(started);
  });

  app.get('/api/contacts/imports/:id', async (request, reply): Promise<ContactImport> => {
    const { id } = parseInput(importParamsSchema, request.params);
    reply.header('Cache-Control', 'no-store');
    return ctx.contactImports.status(request.session.accountId, id);
  });

  app.get('/api/contacts/export', async (request, reply): Promise<string> => {
    const { format } = parseInput(contactExportQuerySchema, request.query);
    const text = await ctx.contactImports.export(request.session.accountId, format);
    reply.header('Cache-Control', 'no-store');
    reply.header('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'text/vcard; charset=utf-8');
    reply.header('Content-Disposition', `attachment; filename="contacts.${format === 'csv' ? 'csv' : 'vcf'}"`);
    return text;
  });
}
