export { LoginPage, AFTER_LOGIN_PATH, type LoginPageProps } from './login-page';
export { authLocales, AUTH_NAMESPACE } from './auth-locales';
