import { Type } from 'typebox';
import { MAX_LOGO_BYTES } from '../../../domain/brand.js';
import { HttpError } from '../../errors.js';
import { boundaryOf, parseMultipart, type UploadedFile } from '../../multipart.js';
import { type BrandFormState, renderBrand } from '../../views/admin/brand.js';
import { ADMINS_ONLY, type AdminPage, type AdminRoutes, seeOther, sendAdminPage } from './context.js';
import { formOptions, nothing, submitForm } from './submit-form.js';

const BrandBody = Type.Object({
  site_name: Type.String({ default: '', maxLength: 200 }),
  accent_light: Type.String({ default: '', maxLength: 20 }),
  accent_dark: Type.String({ default: '', maxLength: 20 }),
  disclosure: Type.String({ default: '', maxLength: 1000 }),
  default_language: Type.String({ default: '', maxLength: 10 }),
  default_country: Type.String({ default: '', maxLength: 10 }),
  contact_email: Type.String({ default: '', maxLength: 300 }),
});
/** The file itself is checked by the command (its bytes, its size), not by the schema. */
const LogoBody = Type.Object({ _csrf: Type.String(), logo: Type.Optional(Type.Unknown()) });

const isUpload = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && Buffer.isBuffer((value as { bytes?: unknown }).bytes);

/** The operator's brand (admins only: it is on every public page); every change is audited. */
export const brandRoutes: AdminRoutes = async (app, { services }) => {
  const brand = services.admin.brand;
  const config = ADMINS_ONLY;

  // The logo form posts multipart (a file input needs no script); read whole under a small limit.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_LOGO_BYTES * 2 + 16 * 1024 },
    (request, body, done) => {
      const boundary = boundaryOf(request.headers['content-type']);
      const fields = boundary ? parseMultipart(body as Buffer, boundary) : null;
      if (!fields) done(new HttpError(400, 'bad_multipart', 'The upload could not be read.'), undefined);
      else done(null, fields);
    },
  );

  const page: AdminPage<{ form?: BrandFormState; logo?: BrandFormState }> = async (
    request,
    reply,
    forms = {},
    status = 200,
  ) => sendAdminPage(request, reply, renderBrand, { brand: await brand.current(), ...forms }, status);

  app.get('/admin/brand', { config, schema: { hide: true } }, async (request, reply) => page(request, reply));

  app.post('/admin/brand', formOptions(BrandBody, config), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      run: (actor, _none, body) =>
        brand.save(actor, {
          siteName: body.site_name,
          accentLight: body.accent_light,
          accentDark: body.accent_dark,
          disclosure: body.disclosure,
          defaultLanguage: body.default_language,
          defaultCountry: body.default_country,
          contactEmail: body.contact_email,
        }),
      show: (_none, failed) => page(request, reply, { form: failed }, 422),
      done: () => '/admin/brand?notice=saved',
    }),
  );

  app.post('/admin/brand/logo', formOptions(LogoBody, config), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      values: () => ({}),
      run: (actor, _none, body) => brand.uploadLogo(actor, isUpload(body.logo) ? body.logo.bytes : null),
      show: (_none, failed) => page(request, reply, { logo: failed }, 422),
      done: () => '/admin/brand?notice=saved',
    }),
  );

  app.post('/admin/brand/logo/remove', { config, schema: { hide: true } }, async (request, reply) => {
    await brand.removeLogo(request.adminActor);
    return seeOther(reply, '/admin/brand?notice=deleted');
  });
};
