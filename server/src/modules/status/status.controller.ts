import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowBeforeSetup, Public, UserOnly } from '../../common/http/access';
import { modelsByType } from '../channel';
import { StatusService } from './status.service';
import { StatusView } from './status.view';
import { ApiEnvelope, STRING, STRINGS } from '../../common/http/api-envelope';

@ApiTags('status')
@Controller('api')
export class StatusController {
  constructor(private readonly status: StatusService) {}

  @Get('status')
  @Public()
  @AllowBeforeSetup()
  @ApiOperation({ summary: 'The public status object the console caches' })
  @ApiEnvelope(StatusView, 'the site status: names, switches and texts the console needs')
  get(): Promise<StatusView> {
    return this.status.publicStatus();
  }

  @Get('notice')
  @Public()
  @AllowBeforeSetup()
  @ApiOperation({ summary: 'Site notice (markdown/HTML text)' })
  @ApiEnvelope(STRING)
  notice(): string {
    return this.status.text('Notice');
  }

  @Get('about')
  @Public()
  @AllowBeforeSetup()
  @ApiOperation({ summary: 'About page text' })
  @ApiEnvelope(STRING)
  about(): string {
    return this.status.text('About');
  }

  @Get('home_page_content')
  @Public()
  @AllowBeforeSetup()
  @ApiOperation({ summary: 'Home page content (markdown/HTML, or a URL shown in a frame)' })
  @ApiEnvelope(STRING)
  home(): string {
    return this.status.text('HomePageContent');
  }

  @Get('models')
  @UserOnly()
  @ApiOperation({ summary: 'Built-in model names per channel type: {"<type>": [models]}' })
  @ApiEnvelope({ type: 'object', additionalProperties: STRINGS })
  models(): Record<string, string[]> {
    return modelsByType();
  }
}
