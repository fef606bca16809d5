/**
 * The channel module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/channel/ is the module's own.
 */
export { CHANNEL_TYPES, modelsByType } from './channel-types';
export { ChannelModule } from './channel.module';
export { ChannelService } from './channel.service';
