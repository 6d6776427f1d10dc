import { ApiProperty } from '@nestjs/swagger';
import { IsNotifyUrl } from '@pay/platform';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { AccountInquiryDto, MerchantTrxId } from '../../../kernel/dto/disbursement.dto';
import type { AccountInquiryCommand } from '../../../services/disbursement/account-inquiry.service';
import type { TransferCommand } from '../../../services/disbursement/transfer.service';

export {
  AccountInquiryDto,
  BatchPageQuery,
  BatchRowDto,
  DisbursementBatchDto,
} from '../../../kernel/dto/disbursement.dto';

export class TransferDto extends AccountInquiryDto {
  @ApiProperty({ example: 'BUDI SANTOSO', description: 'Exactly as returned by the account inquiry' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  accountName!: string;

  @ApiProperty({ example: 'DSB20261122K3J9X2M4Q7PA', description: 'platformTrxId from the account inquiry' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  platformTrxId!: string;

  @ApiProperty({
    example: 'https://merchant.example/callbacks/disbursement',
    description: 'Absolute http(s) URL for the final status',
  })
  @IsNotifyUrl()
  notifyUrl!: string;
}

export class DisbursementInquiryDto {
  @MerchantTrxId()
  merchantTrxId!: string;
}

export const accountInquiryCommand = (dto: AccountInquiryDto): AccountInquiryCommand => ({
  merchantTrxId: dto.merchantTrxId,
  bankCode: dto.bankCode,
  accountNo: dto.accountNo,
  amount: dto.amount,
});

export const transferCommand = (dto: TransferDto): TransferCommand => ({
  ...accountInquiryCommand(dto),
  accountName: dto.accountName,
  platformTrxId: dto.platformTrxId,
  notifyUrl: dto.notifyUrl,
});
