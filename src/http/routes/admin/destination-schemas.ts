import { Type } from 'typebox';
import { Integer } from '../../validation.js';

const text = (max: number) => Type.String({ default: '', maxLength: max });
const common = {
  display_name: text(200),
  description: text(2000),
  icon_url: text(2000),
  base_url: text(2000),
  short_name: text(50),
  display_priority: Integer({ default: 0, minimum: -100000, maximum: 100000 }),
  brand_color: text(7),
  url_template: text(4000),
  is_public: Type.Boolean({ default: false }),
  group: text(20),
  affiliate_param: text(50),
  affiliate_tag: text(200),
  countries: text(400),
  storefronts: text(40000),
};

/** SPEC 2.4 "destination create" (defaults included) plus group and affiliate settings. */
export const CreateBody = Type.Object({ ...common, slug: text(100) });
/** SPEC 2.4 "destination update": `new_slug`, and `is_active` defaulting to true. */
export const UpdateBody = Type.Object({
  ...common,
  new_slug: text(100),
  is_active: Type.Boolean({ default: true }),
});
/** SPEC 2.4 "destination update link". */
export const UpdateLinkBody = Type.Object({
  link_id: Integer({ default: 0 }),
  url: text(2000),
  label: text(100),
  tagline: text(200),
  is_featured: Type.Boolean({ default: true }),
  display_priority: Integer({ default: 0 }),
  active_from: text(40),
  active_until: text(40),
});
export const RemoveBookBody = Type.Object({ link_id: Integer({ default: 0 }) });
export const PreviewQuery = Type.Object({
  template: Type.Optional(text(4000)),
  group: Type.Optional(text(20)),
  affiliate_param: Type.Optional(text(50)),
  affiliate_tag: Type.Optional(text(200)),
});
/** The local bookshop form: a name, a link template, its countries; `action` previews or creates. */
export const LocalShopBody = Type.Object({
  display_name: text(200),
  url_template: text(4000),
  countries: text(400),
  action: text(20),
});
