export { readCookie, serializeCookie } from '../../../domain/cookies.js';

export const SESSION_COOKIE = 'bl_admin';
export const LOGIN_COOKIE = 'bl_login';
