import { z } from 'zod';

export const LoginForm = z.object({
  login: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
  redirect: z.string().max(2048).optional(),
});

export const CodeForm = z.object({
  code: z.string().trim().max(20),
  redirect: z.string().max(2048).optional(),
});

export const MandantForm = z.object({
  mandant: z.string().trim().min(1).max(32),
  redirect: z.string().max(2048).optional(),
});
