import { brandById, DEFAULT_BRAND, type Brand } from '../shared/brands';

/** The brand this bundle was built for (`build.mjs --brand=<id>`). */
export const brand: Brand = brandById(typeof __TERN_BRAND__ === 'string' ? __TERN_BRAND__ : DEFAULT_BRAND);
