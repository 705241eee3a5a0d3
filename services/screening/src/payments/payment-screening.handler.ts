import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { contracts, type ParsedRequestOf, type PaymentScreenResponse } from '@vigil/proto';
import { PaymentScreeningService } from './payment-screening.service.js';

@Controller()
export class PaymentScreeningHandler {
  constructor(private readonly payments: PaymentScreeningService) {}

  @Handles(contracts.screening.screenPayment, 'payment screening request')
  screen(request: ParsedRequestOf<typeof contracts.screening.screenPayment>): Promise<PaymentScreenResponse> {
    return this.payments.screen(request);
  }
}
