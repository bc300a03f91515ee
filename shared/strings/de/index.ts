/** Every German area, typed against English: a missing or extra area or key is a type error. */
import type { en } from '../en';
import { app } from './app';
import { common } from './common';
import { errors } from './errors';
import { login } from './login';

export const de: { readonly [Area in keyof typeof en]: Readonly<Record<keyof (typeof en)[Area], string>> } = {
  app,
  common,
  errors,
  login,
};
