/**
 * The auth module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/auth/ is the module's own.
 */
export { AuthGuard } from './auth.guard';
export { AuthModule } from './auth.module';
export { AuthService, loginResult, LoginResult } from './auth.service';
export { SecondFactorGate, TwoFactorChallenge } from './second-factor.service';
export { SessionService } from './session.service';
export { StepUpService } from './step-up.service';
