import { Type } from 'typebox';
import { randomToken, SESSION_TTL_MS } from '../../../services/admin/auth.js';
import { servedOverHttps } from '../../security-headers.js';
import { renderLogin } from '../../views/admin/login.js';
import { type AdminRoutes, seeOther, sendPage } from './context.js';
import { LOGIN_COOKIE, readCookie, SESSION_COOKIE, serializeCookie } from './cookies.js';
import { schemaErrors, submitted } from './form-errors.js';
import { formOptions } from './submit-form.js';

const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 500 }),
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
});

const MESSAGES = {
  invalid: 'That email and password do not match an account.',
  locked: 'Too many wrong passwords: this account is locked for 15 minutes.',
  ip_limited: 'Too many failed sign-ins from this address. Wait 15 minutes.',
} as const;

/** `/admin/login` (SPEC 2.4 login body: email, password) and `/admin/logout`. */
export const authRoutes: AdminRoutes = async (app, { services }) => {
  const auth = services.admin.auth;
  const secure = servedOverHttps(services.config.baseUrl);
  const loginCookie = (token: string) =>
    serializeCookie(LOGIN_COOKIE, token, { path: '/admin/login', maxAgeSeconds: 3600, secure });

  app.get(
    '/admin/login',
    { config: { adminPublic: true }, schema: { hide: true } },
    async (request, reply) => {
      if (request.adminSession) return seeOther(reply, '/admin');
      // Login CSRF: a token in a cookie of its own, echoed by the form (no session exists yet).
      const token = readCookie(request.headers.cookie, LOGIN_COOKIE) ?? randomToken();
      reply.header('set-cookie', loginCookie(token));
      return sendPage(reply, renderLogin({ token, values: {}, errors: {} }));
    },
  );

  app.post('/admin/login', formOptions(LoginBody, { adminPublic: true }), async (request, reply) => {
    const token = readCookie(request.headers.cookie, LOGIN_COOKIE) ?? randomToken();
    const errors = schemaErrors(request);
    if (errors) return sendPage(reply, renderLogin({ token, values: submitted(request), errors }), 400);
    const result = await auth.login({
      email: request.body.email,
      password: request.body.password,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
    });
    if (result.kind !== 'ok') {
      const status = result.kind === 'invalid' ? 401 : 429;
      const values = { email: request.body.email };
      const errors = { _form: MESSAGES[result.kind] };
      return sendPage(reply, renderLogin({ token, values, errors }), status);
    }
    reply.header('set-cookie', [
      serializeCookie(SESSION_COOKIE, result.token, {
        path: '/admin',
        maxAgeSeconds: SESSION_TTL_MS / 1000,
        secure,
      }),
      serializeCookie(LOGIN_COOKIE, '', { path: '/admin/login', maxAgeSeconds: 0, secure }),
    ]);
    return seeOther(reply, '/admin');
  });

  app.post('/admin/logout', { schema: { hide: true } }, async (request, reply) => {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (token) await auth.logout(token);
    reply.header(
      'set-cookie',
      serializeCookie(SESSION_COOKIE, '', { path: '/admin', maxAgeSeconds: 0, secure }),
    );
    return seeOther(reply, '/admin/login');
  });
};
