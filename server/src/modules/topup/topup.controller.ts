import {
  ArgumentsHost,
  Body,
  Catch,
  Controller,
  ExceptionFilter,
  Get,
  HttpCode,
  Logger,
  Post,
  Query,
  Redirect,
  Req,
  UseFilters,
} from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../common/app-error';
import { RawResponse } from '../../common/http/envelope';
import type { AuthUser } from '../../common/http/request-context';
import { pickLang, translate } from '../../common/i18n/messages';
import { AdminOnly, AllowBeforeSetup, CurrentUser, Public, UserOnly } from '../../common/http/access';
import { AmountDto, CompleteTopUpDto, PayDto, PayFieldError } from './topup.dto';
import { TopUpService } from './topup.service';
import {
  ApiEnvelope,
  ApiPage,
  ApiRawAnswer,
  ApiRedirect,
  BOOLEAN,
  objectOf,
} from '../../common/http/api-envelope';
import { AdminTopUpView, TopUpInfoView, TopUpView } from './topup.view';
import { asObject, type UnknownObject as Raw } from '../../common/json';

/** The refusal of `/amount` and `/pay`: `{success: false, message: "error", data: "<why>"}`. */
function payRefusal(req: FastifyRequest, e: AppError): PayAnswer {
  const lang = req.lang ?? pickLang(req.headers['accept-language']);
  return { success: false, message: 'error', data: translate(e.key, lang, e.params) };
}

/** A field of `/amount` or `/pay` refused by the validation pipe is answered in those routes' shape. */
@Catch(PayFieldError)
class PayRefusalFilter implements ExceptionFilter {
  catch(e: PayFieldError, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    void http
      .getResponse<FastifyReply>()
      .status(200)
      .header('content-type', 'application/json; charset=utf-8')
      .send(payRefusal(http.getRequest<FastifyRequest>(), e));
  }
}

/** `POST /api/user/amount` and `/pay` answer in the shape clients of this gateway family expect. */
interface PayAnswer {
  success: boolean;
  message: 'success' | 'error';
  data: unknown;
  url?: string;
}

/** The wallet: price quotes, online payment through an epay gateway, top-up orders. */
const PAY_ANSWER = objectOf(
  {
    success: BOOLEAN,
    message: { type: 'string', enum: ['success', 'error'] },
    data: { description: 'the amount, the payment form fields, or the reason of a refusal' },
    url: { type: 'string', description: "the payment gateway's address" },
  },
  ['url'],
);

@ApiTags('wallet')
@Controller('api/user')
export class TopUpController {
  private readonly logger = new Logger('TopUp');

  constructor(private readonly topups: TopUpService) {}

  @Get('topup/info')
  @UserOnly()
  @ApiOperation({
    summary:
      'What the wallet page needs: enable_online_topup, pay_methods, min_topup, price, topup_group_ratio (own group), quota_per_unit, display_in_currency, usd_exchange_rate, topup_link',
  })
  @ApiEnvelope(TopUpInfoView, 'the top-up settings the console needs')
  info(@CurrentUser() me: AuthUser): TopUpInfoView {
    return this.topups.info(me);
  }

  @Post('amount')
  @UserOnly()
  @RawResponse()
  @UseFilters(PayRefusalFilter)
  @ApiOperation({
    summary:
      'The price of an amount → {success, message: "success", data: "7.30"} or {success: false, message: "error", data: "<why>"}',
  })
  @ApiRawAnswer(PAY_ANSWER)
  amount(@CurrentUser() me: AuthUser, @Body() body: AmountDto, @Req() req: FastifyRequest): PayAnswer {
    return this.answer(req, () => {
      const q = this.topups.quote(me, body?.amount);
      return { data: (q.cents / 100).toFixed(2) };
    });
  }

  @Post('pay')
  @UserOnly()
  @RawResponse()
  @UseFilters(PayRefusalFilter)
  @ApiOperation({
    summary:
      'Creates a pending order → {success, message: "success", data: {signed epay form fields}, url: "<PayAddress>/submit.php"}',
  })
  @ApiRawAnswer(PAY_ANSWER)
  async pay(
    @CurrentUser() me: AuthUser,
    @Body() body: PayDto,
    @Req() req: FastifyRequest,
  ): Promise<PayAnswer> {
    try {
      const form = await this.topups.pay(me, body ?? {});
      return { success: true, message: 'success', data: form.params, url: form.url };
    } catch (e) {
      return this.error(req, e);
    }
  }

  @Get('topup/self')
  @UserOnly()
  @ApiOperation({
    summary: 'Own top-up orders, newest first (?p, page_size, keyword = part of trade_no, status)',
  })
  @ApiPage(TopUpView)
  self(@CurrentUser() me: AuthUser, @Query() query: Raw) {
    return this.topups.listSelf(me, query);
  }

  @Get('topup')
  @AdminOnly()
  @ApiOperation({
    summary:
      'Every top-up order, newest first (?p, page_size, keyword, status, user_id); items carry username',
  })
  @ApiPage(AdminTopUpView)
  all(@Query() query: Raw) {
    return this.topups.listAll(query);
  }

  @Post('topup/complete')
  @AdminOnly()
  @ApiOperation({ summary: 'Marks a pending order paid and credits it {trade_no} → the order' })
  @ApiEnvelope(TopUpView)
  complete(@CurrentUser() me: AuthUser, @Body() body: CompleteTopUpDto) {
    return this.topups.complete(me, body ?? {});
  }

  // The two calls below are made by the payment gateway and by the browser it sends back, not by API
  // clients: they answer plain text and a redirect, so they stay out of the OpenAPI document.

  @Get('epay/notify')
  @Public()
  @AllowBeforeSetup()
  @RawResponse()
  @ApiExcludeEndpoint()
  notifyGet(@Req() req: FastifyRequest) {
    return this.notify(asObject(req.query));
  }

  @Post('epay/notify')
  @HttpCode(200)
  @Public()
  @AllowBeforeSetup()
  @RawResponse()
  @ApiExcludeEndpoint()
  @ApiRawAnswer({ type: 'string', enum: ['success', 'fail'] })
  notifyPost(@Req() req: FastifyRequest) {
    const body = asObject(req.body);
    return this.notify(Object.keys(body).length ? body : asObject(req.query));
  }

  @Get('epay/return')
  @Public()
  @RawResponse()
  @Redirect()
  @ApiExcludeEndpoint()
  @ApiRedirect()
  back() {
    return { url: this.topups.returnUrl(), statusCode: 302 };
  }

  private async notify(params: Raw): Promise<string> {
    try {
      return await this.topups.notify(params);
    } catch (e) {
      // The gateway retries later.
      this.logger.error(`epay callback failed: ${e instanceof Error ? e.message : String(e)}`);
      return 'fail';
    }
  }

  private answer(req: FastifyRequest, fn: () => { data: unknown }): PayAnswer {
    try {
      return { success: true, message: 'success', ...fn() };
    } catch (e) {
      return this.error(req, e);
    }
  }

  private error(req: FastifyRequest, e: unknown): PayAnswer {
    if (!(e instanceof AppError) || e.status !== 200) throw e;
    return payRefusal(req, e);
  }
}
