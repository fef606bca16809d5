/**
 * The channel-ops module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/channel-ops/ is the module's own.
 */
export { ChannelOpsModule } from './channel-ops.module';
