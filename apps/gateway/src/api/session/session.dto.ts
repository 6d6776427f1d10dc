import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

// Sizes only; the rules (password length, code format) are SignInService's and CredentialsService's.

export class SignInDto {
  @IsString()
  @MaxLength(254)
  email!: string;

  /** A password longer than any that can be set is refused before argon2 sees it. */
  @IsString()
  @MaxLength(512)
  password!: string;

  /** The authenticator app's code, once TOTP is on */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  totp?: string;
}

/** POST .../session/confirm: the signed-in user's password again (and the code, once TOTP is on). */
export class ConfirmPasswordDto {
  @IsString()
  @MaxLength(512)
  password!: string;

  @IsOptional()
  @IsString()
  @MaxLength(16)
  totp?: string;
}

export class SetPasswordDto {
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  token!: string;

  @IsString()
  @MaxLength(512)
  password!: string;
}

export class TotpCodeDto {
  @IsString()
  @MaxLength(16)
  code!: string;
}
