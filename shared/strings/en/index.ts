/** Every English area; a new area adds its file here (and its German twin in ../de/index.ts). */
import { app } from './app';
import { common } from './common';
import { errors } from './errors';
import { login } from './login';

export const en = {
  app,
  common,
  errors,
  login,
};
